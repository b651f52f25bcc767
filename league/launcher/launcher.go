// Package launcher starts a league's processes: the manager, the referees
// and players (built-in, model players, the roster's programs in their
// sandbox), the page server a game may need; it waits for the roster's
// outside agents and open seats to join, reopens a data folder's league
// with the flags it remembers, and stops every process it started. The
// console and `leaguetui --no-ui` both launch a league with it.
package launcher

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
	"golang.org/x/sync/errgroup"
)

// Spec is the league to launch: what plays, where its data folder is, how
// its processes are started. What a run shows and writes (the console's
// screen, --no-ui's lines, the exports) is its caller's.
type Spec struct {
	Config     config.Config
	ConfigArgs []string // flags that reproduce Config for the children
	Executable string   // this binary
	DataDir    string
	Players    int
	Referees   int
	// Seed is a new league's seed when Given.Seed (a random one when
	// not); a data folder's league keeps its own (League.Seed).
	Seed int64
	// Given says which of the size and seed flags the command line set:
	// on a data folder holding a league, given flags must agree with it
	// (a new league needs another folder), and the others are its own.
	Given     Given
	FreePorts bool
	// OpenReferees admits referees without the referee key (the manager's
	// --open-referees); ours get the key all the same.
	OpenReferees bool
	// Env is added to the environment of every agent it starts (the
	// bench's profiling asks for a window this way).
	Env []string
	// Roster lists who plays (and who referees): built-in strategies,
	// model players, programs to start and outside agents to wait for.
	// Nil: Players built-in players and Referees referees.
	Roster *config.Roster
	// Notify is told, a line each, what happens to the roster's programs
	// and who joins while a new league waits (nil: nobody).
	Notify func(string)
	// RequireSandbox refuses to start a roster program where this
	// machine cannot confine its files, ports and signals.
	RequireSandbox bool
	// StartArgs are the flags a new league's data folder remembers
	// (store.StartSpec), for a later run to resume it with none repeated;
	// nil remembers nothing.
	StartArgs []string
}

// Given says which of a Spec's values the command line set, rather than
// left to their defaults.
type Given struct {
	Seed, Players bool
	// Referees: otherwise a resumed league gets back as many referees
	// as it had.
	Referees bool
}

// League is a set of running agent processes.
type League struct {
	Pages      *process.Child // our own page server, for a game that reads pages; nil otherwise
	Manager    *process.Child
	Referees   []*process.Child
	Players    []*process.Child
	Programs   []Program  // the roster's programs, kept running
	programsMu sync.Mutex // Launch starts programs concurrently
	// leaguePorts are the manager's and the referees' ports, which a
	// player program may connect to (under programsMu).
	leaguePorts []uint16
	Control     *control.Client
	AdminToken  string
	// AdminTokenFile is where the admin token is kept: the file it was
	// given in, or the data folder's admin.token (mode 0600) for one made
	// here; "" when it came from LEAGUETUI_ADMIN_TOKEN.
	AdminTokenFile string
	// Resumed is the league as its journal left it when the data folder
	// already held one in progress (the manager holds it paused until
	// its front end resumes it); nil for a new league.
	Resumed *protocol.StandingsFile
	// Seed is the seed the league plays with: the data folder's league's,
	// or the spec's (a random one when none was given).
	Seed int64

	// Seats is the seat host of the league's MCP-client seats (nil for
	// none); SeatsURL is its MCP endpoint and SeatsFile the data folder's
	// seats.json, which holds each seat's join code.
	Seats     *process.Child
	SeatsURL  string
	SeatsFile string

	lock   *store.DataLock // the data folder is ours (and the manager's) until Stop
	notify func(string)
	// playerNames are the names of the players the league was started
	// for (the roster's, or the built-in ones'): the others take seats.
	playerNames []string
	joinCodes   store.JoinCodes // of its own players but the programs, see seatArgs

	// diskCap is the disk cap of a program whose entry sets none, set
	// once from the free space when the first program starts.
	diskOnce sync.Once
	diskCap  uint64
}

// say tells Spec.Notify, if any.
func (l *League) say(line string) {
	if l.notify != nil {
		l.notify(line)
	}
}

// Children lists the league's agents, the manager first; the page server
// (Pages) is not one of them.
func (l *League) Children() []*process.Child {
	all := []*process.Child{}
	if l.Manager != nil {
		all = append(all, l.Manager)
	}
	return append(append(all, l.Referees...), l.Players...)
}

// Stop ends every child: the manager first, so that it delivers what it
// still has queued for the others, then the referees, which end their
// matches with the players still there, then the players. The referees
// stop all at once, and so do the players: one after the other, a
// thousand players took minutes to stop.
func (l *League) Stop() {
	if l.Manager != nil {
		_ = l.Manager.Stop(10 * time.Second)
	}
	stopAll(l.Referees)
	var stopping sync.WaitGroup
	for _, p := range l.Programs {
		stopping.Go(func() { p.Stop(5 * time.Second) })
	}
	stopAll(l.Players)
	if l.Seats != nil {
		_ = l.Seats.Stop(5 * time.Second)
	}
	stopping.Wait()
	if l.Pages != nil {
		_ = l.Pages.Stop(5 * time.Second)
	}
	_ = l.lock.Release()
}

// stopAll stops children all at once and waits for them.
func stopAll(children []*process.Child) {
	var stopping sync.WaitGroup
	for _, c := range children {
		stopping.Go(func() { _ = c.Stop(5 * time.Second) })
	}
	stopping.Wait()
}

// Unfinished says the data folder holds a league that has started and not
// ended, which the same command carries on whatever stopped this run.
func (l *League) Unfinished() bool {
	return l != nil && l.Resumed != nil && !l.Finished()
}

// ManagerExitedError says the manager process leaguetui started has
// exited under it.
type ManagerExitedError struct {
	PID    int
	Status error // from its wait: "signal: killed", "exit status 1"; nil for status 0
	Cause  error // what the run met: the manager's answers gone
}

func (e *ManagerExitedError) Unwrap() error { return e.Cause }

func (e *ManagerExitedError) Error() string {
	status := "exit status 0"
	if e.Status != nil {
		status = e.Status.Error()
	}
	return fmt.Sprintf("the manager (PID %d) exited (%s)", e.PID, status)
}

// Size is how many players the league has, its roster's (or --players
// built-in ones) and its open seats, and how many referees.
func (opts Spec) Size() (players, referees int) {
	players = opts.Players
	if opts.Roster != nil {
		players = len(opts.Roster.Players)
	}
	return players + opts.Config.Joining.OpenSeats + opts.Config.Joining.MCPSeats, len(refereeEntries(opts))
}

// CheckSize checks that the league has players and a referee: at least
// two players (the roster's and the open seats) and one referee; and that
// its format fits those players (config.Format.CheckPlayers).
func (opts Spec) CheckSize() error {
	players, referees := opts.Size()
	if players < 2 || referees < 1 {
		if opts.Roster != nil {
			return fmt.Errorf("roster %s: a league needs at least 2 players (with the open seats) and 1 referee (got %d and %d)",
				opts.Roster.Path, players, referees)
		}
		return fmt.Errorf("a league needs at least 2 players and 1 referee (got --players %d --referees %d)", opts.Players, opts.Referees)
	}
	return opts.Config.Format.CheckPlayers(players)
}

// Launch starts the manager, then the referees and players, and returns
// the league they make, which the caller starts (or resumes) through
// League.Control and ends with Stop. Agents of ours register as they
// start, in the order of their ids, so that the same seed gives the same
// league. On an error the League returned, if any, holds what was started:
// Stop it.
func Launch(ctx context.Context, spec Spec) (*League, error) {
	l, err := prepare(spec)
	if l == nil {
		return nil, err
	}
	league := l.league
	if err != nil {
		return league, err
	}
	if err := l.startManager(ctx); err != nil {
		return league, err
	}
	ctx, stopWatching := league.whileManagerRuns(ctx)
	defer stopWatching()
	if err := l.reopen(ctx); err != nil {
		return league, err
	}
	if league.Finished() {
		// Nothing is left to play: no agent is started, so none registers
		// again in the finished league's journal. The manager alone serves
		// the league as it ended.
		return league, nil
	}
	if err := l.startReferees(ctx); err != nil {
		return league, managerGone(ctx, err)
	}
	if err := l.startPlayers(ctx); err != nil {
		return league, managerGone(ctx, err)
	}
	if err := l.startSeatHost(ctx); err != nil {
		return league, managerGone(ctx, err)
	}
	return league, nil
}

// launching is a league being launched: its spec, as Launch fills it in,
// and what its steps share.
type launching struct {
	spec    Spec
	layout  store.Layout
	league  *League
	keyEnv  string // the referee key, as an environment entry
	players []config.RosterEntry
}

// agentReady bounds how long an agent of ours may take to listen (and
// register, for those that do).
const agentReady = 30 * time.Second

// prepare checks the spec against the machine (ports, data folder) and
// takes the data folder: one owner per folder, its admin token, the writes
// a crash cut short removed.
func prepare(spec Spec) (*launching, error) {
	cfg := spec.Config
	if spec.Roster != nil {
		spec.Players = len(spec.Roster.Players)
		spec.Referees = len(refereeEntries(spec))
	}
	if !spec.Given.Seed {
		spec.Seed = randomSeed() // a new league's; a data folder holding one keeps its own
	}
	if err := checkPorts(spec); err != nil {
		return nil, err
	}
	layout, err := store.NewLayout(spec.DataDir, cfg.LeagueID)
	if err != nil {
		return nil, fmt.Errorf("--league-id: %w", err)
	}
	if err := store.CheckWritable(layout.SystemDir()); err != nil {
		return nil, err
	}
	// A second leaguetui (or a manager started by hand) on the folder is
	// refused at once, naming us. The manager shares our lock, so it
	// keeps the folder until it has exited.
	lock, err := store.LockDataFolder(spec.DataDir)
	if err != nil {
		return nil, err
	}
	l := &launching{spec: spec, layout: layout, league: &League{lock: lock, notify: spec.Notify, Seed: spec.Seed}}
	if l.league.AdminToken, l.league.AdminTokenFile, err = adminToken(cfg, layout); err != nil {
		return l, err
	}
	if err := removeCutWrites(layout); err != nil {
		return l, err
	}
	// The referees we start are admitted with a key of our own (the
	// admin's, if set), passed in the environment: not on a command line
	// that anyone on the machine may read.
	refereeKey, err := cfg.RefereeKey(os.Getenv)
	if err != nil {
		return l, err
	}
	l.keyEnv = RefereeKeyEnv + "=" + cmp.Or(refereeKey, newSecret("ref-"))
	if l.players, err = playerEntries(spec); err != nil {
		return l, err
	}
	l.league.playerNames = names(l.players)
	return l, nil
}

// argsFor are the flags an agent of ours started as command gets: the
// data folder, and of the config's flags those the command takes.
func (l *launching) argsFor(command string) []string {
	return append([]string{"--data", l.spec.DataDir}, config.ArgsFor(command, l.spec.ConfigArgs)...)
}

// output is where our own agent called name writes its output.
func (l *launching) output(name string) string {
	path, _ := l.layout.ProcessOutput(name) // our own names: REF01, P01, league_manager
	return path
}

// startManager starts the manager, held until the league is started, with
// the seats it keeps for the league's players.
func (l *launching) startManager(ctx context.Context) error {
	spec, league := l.spec, l.league
	args := []string{"manager", "--hold", "--port", port(spec, spec.Config.Network.ManagerPort, 0),
		"--seed", strconv.FormatInt(spec.Seed, 10), "--reserve", strings.Join(names(l.players), ",")}
	if spec.OpenReferees {
		args = append(args, "--open-referees")
	}
	seats, err := league.seatArgs(spec, l.layout, l.players)
	if err != nil {
		return err
	}
	manager, err := process.Start(ctx, spec.Executable, process.Spec{
		Name: "manager", OutputPath: l.output("league_manager"),
		Args:     append(append(args, seats...), l.argsFor("manager")...),
		Env:      append([]string{AdminTokenEnv + "=" + league.AdminToken, l.keyEnv}, spec.Env...),
		DataLock: league.lock.File(),
	}, agentReady)
	if err != nil {
		return err
	}
	league.Manager = manager
	league.addLeagueEndpoint(manager.Endpoint)
	league.Control = control.New(manager.Endpoint, league.AdminToken)
	return nil
}

// reopen learns from the manager whether the data folder held a league,
// and takes that league's seed and size; a new league's folder remembers
// how it was started instead. Either way the files derived from the
// journal are rebuilt.
func (l *launching) reopen(ctx context.Context) error {
	league := l.league
	if err := league.checkResumed(ctx, &l.spec); err != nil {
		return err
	}
	league.Seed = l.spec.Seed
	if league.Resumed != nil { // its players, as many as it had
		var err error
		if l.players, err = playerEntries(l.spec); err != nil {
			return err
		}
	} else if l.spec.StartArgs != nil {
		if err := store.SaveStartSpec(l.spec.DataDir, store.StartSpec{Args: l.spec.StartArgs}); err != nil {
			return fmt.Errorf("cannot remember how the league was started: %w", err)
		}
	}
	return rebuildDerived(l.layout, strategyOf(l.players))
}

// startReferees starts the league's referees: ours, and the roster's
// programs (admitted with the league's referee key, in their environment);
// outside referees register by themselves.
func (l *launching) startReferees(ctx context.Context) error {
	spec, league := l.spec, l.league
	refereeArgs, err := league.startPages(ctx, spec, l.output("pages"), l.argsFor("referee"))
	if err != nil {
		return err
	}
	referees := refereeEntries(spec)
	league.Referees, err = startConcurrently(ctx, len(referees), func(ctx context.Context, i int) (*process.Child, error) {
		e := referees[i]
		switch e.Kind() {
		case config.KindExternal:
			return nil, nil
		case config.KindProgram:
			return nil, league.startProgram(spec, e, league.say, l.keyEnv)
		}
		child, err := process.Start(ctx, spec.Executable, process.Spec{
			Name: "referee " + e.Name, OutputPath: l.output(e.Name), Register: true,
			Args: append([]string{"referee", "--port", port(spec, spec.Config.Network.RefereePortFirst, i),
				"--manager", league.Manager.Endpoint, "--name", e.Name}, refereeArgs...),
			Env: append([]string{l.keyEnv}, spec.Env...),
		}, agentReady)
		if err == nil {
			league.addLeagueEndpoint(child.Endpoint)
		}
		return child, err
	})
	return err
}

// startPlayers starts the league's players: built-in and model players of
// ours, and the roster's programs; outside players register by themselves.
func (l *launching) startPlayers(ctx context.Context) error {
	spec, league := l.spec, l.league
	var err error
	league.Players, err = startConcurrently(ctx, len(l.players), func(ctx context.Context, i int) (*process.Child, error) {
		e := l.players[i]
		switch e.Kind() {
		case config.KindExternal, config.KindMCP: // the seat host serves the MCP seats (startSeatHost)
			return nil, nil
		case config.KindProgram:
			return nil, league.startProgram(spec, e, league.say, "")
		}
		args := append([]string{"player", "--port", port(spec, spec.Config.Network.PlayerPortFirst, i),
			"--manager", league.Manager.Endpoint, "--name", e.Name, "--strategy", e.Strategy,
			"--seed", strconv.FormatInt(spec.Seed, 10)}, l.argsFor("player")...)
		return process.Start(ctx, spec.Executable, process.Spec{
			Name: "player " + e.Name, OutputPath: l.output(e.Name), Register: true,
			Args: append(args, modelArgs(e)...),
			Env:  append(slices.Clone(spec.Env), league.joinCodeEnv(e.Name)...),
		}, agentReady)
	})
	return err
}

// whileManagerRuns is ctx, ended as soon as the manager process exits,
// with a ManagerExitedError as its cause: the agents starting then (a
// resumed league's, registering again) give up at once, rather than each
// waiting out its registration's time.
func (l *League) whileManagerRuns(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		for ctx.Err() == nil {
			if exited, status := l.Manager.Exited(time.Second); exited {
				cancel(&ManagerExitedError{PID: l.Manager.PID(), Status: status, Cause: errors.New("while the agents started")})
				return
			}
		}
	}()
	return ctx, func() { cancel(nil) }
}

// managerGone is err, or the manager's exit when that is what ended ctx.
func managerGone(ctx context.Context, err error) error {
	var exited *ManagerExitedError
	if cause := context.Cause(ctx); errors.As(cause, &exited) {
		return cause
	}
	return err
}

// strategyOf names the strategy of the player leaguetui starts as id: the
// i-th of players is given the id config.PlayerIDAt(i) (P01 is the first).
// "" for an id leaguetui starts none of its own players as: a roster's
// program or outside agent, or any agent from elsewhere.
func strategyOf(players []config.RosterEntry) func(id string) string {
	byID := map[string]string{}
	for i, e := range players {
		if kind := e.Kind(); kind == config.KindBuiltin || kind == config.KindModel {
			byID[config.PlayerIDAt(i)] = e.Strategy
		}
	}
	return func(id string) string { return byID[id] }
}

// Finished says the data folder held a league that had ended (completed,
// or stopped by the admin) before this run.
func (l *League) Finished() bool {
	return l.Resumed != nil && (l.Resumed.State == engine.LeagueCompleted || l.Resumed.State == engine.LeagueStopped)
}

// startPages starts our own page server when the league's game reads pages
// and no --pages-url names one, and returns the referees' arguments, which
// then name it.
func (l *League) startPages(ctx context.Context, opts Spec, output string, common []string) ([]string, error) {
	game, _ := engine.LookupGame(opts.Config.GameType)
	if _, reads := game.(engine.PageReader); !reads || opts.Config.Pages.URL != "" {
		return common, nil
	}
	child, err := process.Start(ctx, opts.Executable, process.Spec{
		Name: "page server", OutputPath: output,
		Args: append([]string{"pages", "--port", "0", "--seed", strconv.FormatInt(opts.Seed, 10)}, config.ArgsFor("pages", opts.ConfigArgs)...),
	}, 30*time.Second)
	if err != nil {
		return nil, err
	}
	l.Pages = child
	return append(slices.Clone(common), "--pages-url", child.Endpoint), nil
}

// checkResumed asks the manager whether the data folder held a league
// already under way. Its players come back with the journal's seed (their
// strategies depend on it) and in its number, each registering again as
// itself with the credentials it saved.
func (l *League) checkResumed(ctx context.Context, opts *Spec) error {
	status, err := l.Control.Standings(ctx)
	if err != nil {
		return err
	}
	if status.State == engine.LeagueWaiting {
		return nil
	}
	l.Resumed = &status
	if err := flagsAgree(*opts, status); err != nil {
		return err
	}
	opts.Seed = status.Seed
	if n := len(status.Standings); n > 0 && opts.Roster == nil && !opts.Given.Players {
		opts.Players = n // an older folder's league, which remembers no --players
	}
	if !opts.Given.Referees {
		// Referees the league had and that do not come back would be
		// given matches they cannot play, each then reassigned.
		n, err := registeredReferees(ctx, l.Control)
		if err != nil {
			return err
		}
		opts.Referees = max(n, 1)
	}
	return nil
}

// registeredReferees counts the referees a league registered before it
// started, read from the start of its feed.
func registeredReferees(ctx context.Context, c *control.Client) (int, error) {
	seen := map[string]bool{}
	var cursor int64
	for {
		page, err := c.Events(ctx, cursor, 0)
		if err != nil {
			return 0, err
		}
		for _, ev := range page.Events {
			switch {
			case ev.Kind == engine.EventLeagueStarted:
				return len(seen), nil
			case ev.Kind == engine.EventAgentRegistered && ev.Agent != nil && ev.Agent.Role == engine.RoleReferee:
				seen[ev.Agent.ID] = true
			}
		}
		if len(page.Events) == 0 {
			return len(seen), nil
		}
		cursor = page.LastSeq
	}
}

// DescribeLeague names the league a data folder holds: its state, game,
// size and seed, and how far it got.
func DescribeLeague(dataDir string, s protocol.StandingsFile) string {
	game := s.GameType
	if game == "" {
		game = "game not said"
	}
	return fmt.Sprintf("%s holds league %s: %s, %s, %s, seed %d, %d of %d matches played", dataDir, s.LeagueID, s.State,
		game, control.Plural(len(s.Standings), "player"), s.Seed, s.MatchesDone, s.MatchesTotal)
}

// flagsAgree checks the flags given against the league the data folder
// holds; a flag that would make another league is an error giving the two
// ways on.
func flagsAgree(opts Spec, s protocol.StandingsFile) error {
	var differ, given []string
	// The standings count the open seats taken too.
	if n := len(s.Standings); opts.Given.Players && opts.Roster == nil && n > 0 && (n < opts.Players || n > opts.Players+opts.Config.Joining.OpenSeats+opts.Config.Joining.MCPSeats) {
		differ = append(differ, fmt.Sprintf("--players %d (it has %d)", opts.Players, n))
		given = append(given, fmt.Sprintf("--players %d", opts.Players))
	}
	if opts.Given.Seed && opts.Seed != s.Seed {
		differ = append(differ, fmt.Sprintf("--seed %d (its seed is %d)", opts.Seed, s.Seed))
		given = append(given, fmt.Sprintf("--seed %d", opts.Seed))
	}
	if game := opts.Config.GameType; slices.Contains(opts.ConfigArgs, "--game") && s.GameType != "" && game != s.GameType {
		differ = append(differ, fmt.Sprintf("--game %s (it plays %s)", game, s.GameType))
		given = append(given, "--game "+game)
	}
	if len(differ) == 0 {
		return nil
	}
	return fmt.Errorf("%s; %s disagrees with it. Either open it as it is (leave out %s), "+
		"or start a new league in another folder (--data NEW_FOLDER %s)",
		DescribeLeague(opts.DataDir, s), strings.Join(differ, " and "), strings.Join(given, " "), strings.Join(given, " "))
}

// port is the port for the i-th agent from first, or 0 (any free port).
func port(opts Spec, first, i int) string {
	if opts.FreePorts {
		return "0"
	}
	return strconv.Itoa(first + i)
}

func checkPorts(opts Spec) error {
	if opts.FreePorts {
		return nil
	}
	net := opts.Config.Network
	if opts.Referees > net.RefereePortLast-net.RefereePortFirst+1 || opts.Players > net.PlayerPortLast-net.PlayerPortFirst+1 {
		return fmt.Errorf("more agents than ports in the configured ranges (referees %d-%d, players %d-%d); pass --free-ports",
			net.RefereePortFirst, net.RefereePortLast, net.PlayerPortFirst, net.PlayerPortLast)
	}
	ports := []int{net.ManagerPort}
	for i := range opts.Referees {
		ports = append(ports, net.RefereePortFirst+i)
	}
	for i := range opts.Players {
		ports = append(ports, net.PlayerPortFirst+i)
	}
	return process.CheckPortsFree(net.Host, ports...)
}

// ResumeCommand is the command that resumes the league in dataDir:
// leaguetui with mode's flags (--no-ui, or none for the console).
func ResumeCommand(dataDir string, freePorts bool, mode ...string) string {
	resume := strings.Join(append(append([]string{"leaguetui"}, mode...), "--data", dataDir), " ")
	if freePorts {
		resume += " --free-ports"
	}
	return resume
}

// RefereeKeyEnv names the environment variable that holds the referee key
// a manager admits referees with, and that referees present.
const RefereeKeyEnv = config.RefereeKeyEnv

// adminToken is the admin token of the league Launch starts: the
// environment's LEAGUETUI_ADMIN_TOKEN (or the file its _FILE variable
// names), else the file --admin-token-file
// names, else the one of the data folder's admin.token (an earlier run's),
// else a new one, written there readable by the owner only, so that a
// second console (--attach URL --admin-token-file FILE) can control the
// league.
func adminToken(cfg config.Config, layout store.Layout) (token, file string, err error) {
	if token, err := cfg.AdminToken(os.Getenv); token != "" || err != nil {
		return token, cfg.Security.AdminTokenFile, err
	}
	file = layout.AdminToken()
	if token, err := config.ReadSecretFile(file); err == nil {
		// The league's token from its earlier run: a console attached
		// with it keeps control across a resume, and a run of a league
		// already completed writes nothing.
		return token, file, nil
	}
	token = newSecret("adm-")
	if err := store.WriteSecret(file, token); err != nil {
		return "", "", fmt.Errorf("cannot write the admin token: %w", err)
	}
	return token, file, nil
}

// AdminTokenEnv holds the admin token of the league leaguetui starts, or
// of the manager a console attaches to.
const AdminTokenEnv = config.AdminTokenEnv

// newSecret is 32 random bytes in hex after prefix.
func newSecret(prefix string) string {
	buf := make([]byte, 32)
	_, _ = rand.Read(buf)
	return prefix + hex.EncodeToString(buf)
}

func randomSeed() int64 {
	buf := make([]byte, 8)
	_, _ = rand.Read(buf)
	var n int64
	for _, b := range buf[:6] {
		n = n<<8 | int64(b)
	}
	return n
}

// startConcurrently runs start for 0…n-1, a bounded number at a time, and
// returns the children started, in the order of i (a start may start none),
// with the first error. Each start waits for its agent to register, so
// starting one after another left all but one core idle; the ids do not
// depend on the order of registration (the manager keeps each name's id,
// and schedules by id), so neither do the standings. On an error the
// children started so far are returned, for the caller to stop.
func startConcurrently(ctx context.Context, n int, start func(ctx context.Context, i int) (*process.Child, error)) ([]*process.Child, error) {
	children := make([]*process.Child, n)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(StartParallelism())
	for i := range n {
		g.Go(func() error {
			child, err := start(ctx, i)
			children[i] = child
			return err
		})
	}
	err := g.Wait()
	return slices.DeleteFunc(children, func(c *process.Child) bool { return c == nil }), err
}

// StartParallelism is how many agents leaguetui starts at once: a few per
// core, since an agent starting spends most of its time waiting for its
// registration's answer.
func StartParallelism() int { return 4 * runtime.NumCPU() }

// StandingsPath is where the league's standings file is.
func (s Spec) StandingsPath() string {
	return store.Layout{Root: s.DataDir, LeagueID: s.Config.LeagueID}.Standings()
}
