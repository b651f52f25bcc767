// Package headless runs a whole league without a console: it starts the
// manager, referees and players as child processes, starts the league,
// prints progress to stderr and the final standings to stdout, and stops
// every child it started. It is what `leaguetui --no-ui` does, for CI.
package headless

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/agents/launch"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/report"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/web"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// Options describe a league to run.
type Options struct {
	Config     config.Config
	ConfigArgs []string // flags that reproduce Config for the children
	Executable string   // this binary
	DataDir    string
	Players    int
	Referees   int
	Seed       int64
	SeedSet    bool
	// PlayersSet: --players was given. On a data folder holding a league,
	// given flags must agree with it (a new league needs another folder).
	PlayersSet bool
	// RefereesSet: --referees was given; otherwise a resumed league gets
	// back as many referees as it had.
	RefereesSet bool
	FreePorts   bool
	Stdout      io.Writer // final standings (and the events with JSON)
	Stderr      io.Writer // progress
	JSON        bool      // --json: the events and the final standings as JSON lines on stdout
	Quiet       bool      // --quiet: no progress, no events; only the final standings
	// OpenReferees admits referees without the referee key (the manager's
	// --open-referees); ours get the key all the same.
	OpenReferees bool
	// CSVDir, when set, gets the league's exports (agents/report) once
	// it has completed: standings.csv, crosstable.csv, matches.csv and
	// results.jsonl.
	CSVDir string
	// WebAddr, when set, serves the live web view (agents/web) of the
	// league on that address while it runs.
	WebAddr string
	// Env is added to the environment of every agent it starts (the
	// bench's profiling asks for a window this way).
	Env []string
	// Interrupts are the Ctrl-C presses: the first drains the league (no
	// new match starts, running ones finish, the state is saved), the
	// second stops it at once. Nil: only ctx ends a run early.
	Interrupts <-chan os.Signal
}

// League is a set of running agent processes.
type League struct {
	Pages      *launch.Child // our own page server, for a game that reads pages; nil otherwise
	Manager    *launch.Child
	Referees   []*launch.Child
	Players    []*launch.Child
	Control    *control.Client
	AdminToken string
	// Resumed is the league as its journal left it when the data folder
	// already held one in progress (the manager holds it paused until
	// Run resumes it); nil for a new league.
	Resumed *protocol.StandingsFile

	lock *store.DataLock // the data folder is ours (and the manager's) until Stop
}

// Children lists the league's agents, the manager first; the page server
// (Pages) is not one of them.
func (l *League) Children() []*launch.Child {
	all := []*launch.Child{}
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
	stopAll(l.Players)
	if l.Pages != nil {
		_ = l.Pages.Stop(5 * time.Second)
	}
	_ = l.lock.Release()
}

// stopAll stops children all at once and waits for them.
func stopAll(children []*launch.Child) {
	var stopping sync.WaitGroup
	for _, c := range children {
		stopping.Go(func() { _ = c.Stop(5 * time.Second) })
	}
	stopping.Wait()
}

// Run plays a whole league, or resumes the one the data folder holds, and
// returns when it is completed.
func Run(ctx context.Context, opts Options) error {
	if opts.Players < 2 || opts.Referees < 1 {
		return fmt.Errorf("a league needs at least 2 players and 1 referee (got --players %d --referees %d)", opts.Players, opts.Referees)
	}
	if !opts.SeedSet {
		opts.Seed = randomSeed()
	}
	// Ctrl-C while the agents start gives up at once: nothing has been
	// played yet, and there is nothing to drain.
	startCtx, giveUp := context.WithCancel(ctx)
	defer giveUp()
	started := make(chan struct{})
	go func() {
		select {
		case <-opts.Interrupts:
			giveUp()
		case <-started:
		}
	}()
	league, err := Launch(startCtx, opts)
	if league != nil {
		defer league.Stop()
	}
	out := newOutput(opts)
	if err == nil && opts.WebAddr != "" {
		err = ServeWeb(ctx, league.Control.Base(), opts.WebAddr, out.progress)
	}
	var progress *progress
	if err == nil {
		progress, err = begin(startCtx, league, opts, out)
	}
	close(started)
	if startCtx.Err() != nil && ctx.Err() == nil {
		return &InterruptedError{Starting: true, DataDir: opts.DataDir, FreePorts: opts.FreePorts}
	}
	if err != nil || progress == nil {
		return err
	}
	if err := follow(ctx, league.Control, progress, opts.Interrupts); err != nil {
		var stopped *InterruptedError
		if errors.As(err, &stopped) {
			league.Stop() // the manager saves its state before it exits
			stopped.DataDir, stopped.FreePorts = opts.DataDir, opts.FreePorts
		}
		var storage *StorageFailedError
		if errors.As(err, &storage) {
			storage.Resume = ResumeCommand(opts.DataDir, opts.FreePorts, "--no-ui")
		}
		return err
	}
	standings, err := league.Control.Standings(ctx)
	if err != nil {
		return err
	}
	out.standings(standings, league.modelCosts(ctx))
	return writeExports(opts, standings.LeagueID)
}

// ServeWeb serves the live web view of the manager at managerURL on addr
// until ctx ends, and says where on progress.
func ServeWeb(ctx context.Context, managerURL, addr string, progress io.Writer) error {
	url, err := web.New(managerURL).Start(ctx, addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(progress, "leaguetui: web view at %s\n", url)
	return nil
}

// writeExports writes the league's exports into --csv's folder, read from
// the data folder the league has just completed in.
func writeExports(opts Options, leagueID string) error {
	if opts.CSVDir == "" {
		return nil
	}
	l, err := report.Load(opts.DataDir, leagueID)
	if err == nil {
		err = l.WriteExports(opts.CSVDir)
	}
	if err != nil {
		return fmt.Errorf("--csv %s: %w", opts.CSVDir, err)
	}
	return nil
}

// begin starts a new league, or resumes the one the journal holds, and
// says which on stderr. It returns nil progress when there is nothing left
// to play.
func begin(ctx context.Context, league *League, opts Options, out *output) (*progress, error) {
	if health, err := league.Control.Health(ctx); err == nil && health.OpenReferees {
		fmt.Fprintln(out.progress, "leaguetui: the league is open: its manager admits any referee, without the referee key (--open-referees)")
	}
	status := league.Resumed
	if status == nil {
		fmt.Fprintf(out.progress, "leaguetui: seed %d (repeat this league with --seed %d)\n", opts.Seed, opts.Seed)
		return newProgress(out.progress, out.event), league.Control.Start(ctx)
	}
	// A league that ended before this run is not this run's result: no
	// standings on stdout and no exit status 0 that a CI job would take
	// for a league it just played.
	switch status.State {
	case engine.LeagueCompleted:
		return nil, fmt.Errorf("%s: it was completed before this run, which plays nothing (its standings: %s); "+
			"for a new league, pass another --data folder", DescribeLeague(opts.DataDir, *status), standingsPath(opts))
	case engine.LeagueStopped:
		return nil, fmt.Errorf("%s: it was stopped and cannot go on; for a new league, pass another --data folder",
			DescribeLeague(opts.DataDir, *status))
	}
	fmt.Fprintf(out.progress, "leaguetui: %s\n", DescribeLeague(opts.DataDir, *status))
	fmt.Fprintf(out.progress, "leaguetui: resuming league %s (seed %d) from its journal: %d of %d matches done\n",
		status.LeagueID, status.Seed, status.MatchesDone, status.MatchesTotal)
	p := newProgress(out.progress, out.event)
	p.quietUntil = status.Version
	if status.State == engine.LeaguePaused {
		return p, league.Control.Resume(ctx)
	}
	return p, nil
}

// Launch starts the manager, then the referees and players one by one, each
// registered before the next starts so that ids follow the launch order and
// the same seed gives the same league.
func Launch(ctx context.Context, opts Options) (*League, error) {
	cfg := opts.Config
	if err := checkPorts(opts); err != nil {
		return nil, err
	}
	layout, err := store.NewLayout(opts.DataDir, cfg.LeagueID)
	if err != nil {
		return nil, fmt.Errorf("--league-id: %w", err)
	}
	if err := store.CheckWritable(layout.SystemDir()); err != nil {
		return nil, err
	}
	output := func(name string) string {
		path, _ := layout.ProcessOutput(name) // our own names: REF01, P01, league_manager
		return path
	}
	// One owner per data folder: a second leaguetui (or a manager started
	// by hand) on it is refused at once, naming us. The manager shares our
	// lock, so it keeps the folder until it has exited.
	lock, err := store.LockDataFolder(opts.DataDir)
	if err != nil {
		return nil, err
	}
	league := &League{AdminToken: newSecret("adm-"), lock: lock}
	if err := rebuildDerived(layout); err != nil {
		return league, err
	}
	common := append([]string{"--data", opts.DataDir}, opts.ConfigArgs...)
	ready := 30 * time.Second
	// The referees it starts are admitted with a key of its own (the
	// admin's, if set), passed in the environment: not on a command line
	// that anyone on the machine may read.
	refereeKey, err := cfg.RefereeKey(os.Getenv)
	if err != nil {
		return league, err
	}
	refereeKey = cmp.Or(refereeKey, newSecret("ref-"))
	keyEnv := RefereeKeyEnv + "=" + refereeKey
	managerArgs := []string{"manager", "--hold", "--port", port(opts, cfg.Network.ManagerPort, 0),
		"--seed", strconv.FormatInt(opts.Seed, 10)}
	if opts.OpenReferees {
		managerArgs = append(managerArgs, "--open-referees")
	}

	manager, err := launch.Start(ctx, opts.Executable, launch.Spec{
		Name: "manager", OutputPath: output("league_manager"),
		Args:     append(managerArgs, common...),
		Env:      append([]string{"LEAGUETUI_ADMIN_TOKEN=" + league.AdminToken, keyEnv}, opts.Env...),
		DataLock: lock.File(),
	}, ready)
	if err != nil {
		return league, err
	}
	league.Manager = manager
	league.Control = control.New(manager.Endpoint, league.AdminToken)
	if err := league.checkResumed(ctx, &opts); err != nil {
		return league, err
	}

	refereeArgs, err := league.startPages(ctx, opts, output("pages"), common)
	if err != nil {
		return league, err
	}
	for i := range opts.Referees {
		name := fmt.Sprintf("REF%02d", i+1)
		child, err := launch.Start(ctx, opts.Executable, launch.Spec{
			Name: "referee " + name, OutputPath: output(name), Register: true,
			Args: append([]string{"referee", "--port", port(opts, cfg.Network.RefereePortFirst, i),
				"--manager", manager.Endpoint, "--name", name}, refereeArgs...),
			Env: append([]string{keyEnv}, opts.Env...),
		}, ready)
		if err != nil {
			return league, err
		}
		league.Referees = append(league.Referees, child)
	}
	strategies, err := playerStrategies(cfg)
	if err != nil {
		return league, err
	}
	for i := range opts.Players {
		name := fmt.Sprintf("P%02d", i+1)
		child, err := launch.Start(ctx, opts.Executable, launch.Spec{
			Name: "player " + name, OutputPath: output(name), Register: true,
			Args: append([]string{"player", "--port", port(opts, cfg.Network.PlayerPortFirst, i),
				"--manager", manager.Endpoint, "--name", name, "--strategy", strategies[i%len(strategies)],
				"--seed", strconv.FormatInt(opts.Seed, 10)}, common...),
			Env: opts.Env,
		}, ready)
		if err != nil {
			return league, err
		}
		league.Players = append(league.Players, child)
	}
	return league, nil
}

// startPages starts our own page server when the league's game reads pages
// and no --pages-url names one, and returns the referees' arguments, which
// then name it.
func (l *League) startPages(ctx context.Context, opts Options, output string, common []string) ([]string, error) {
	game, _ := engine.LookupGame(opts.Config.GameType)
	if _, reads := game.(engine.PageReader); !reads || opts.Config.Pages.URL != "" {
		return common, nil
	}
	child, err := launch.Start(ctx, opts.Executable, launch.Spec{
		Name: "page server", OutputPath: output,
		Args: append([]string{"pages", "--port", "0", "--seed", strconv.FormatInt(opts.Seed, 10)}, opts.ConfigArgs...),
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
func (l *League) checkResumed(ctx context.Context, opts *Options) error {
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
	if n := len(status.Standings); n > 0 {
		opts.Players = n
	}
	if !opts.RefereesSet {
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
func flagsAgree(opts Options, s protocol.StandingsFile) error {
	var differ, given []string
	if n := len(s.Standings); opts.PlayersSet && n > 0 && opts.Players != n {
		differ = append(differ, fmt.Sprintf("--players %d (it has %d)", opts.Players, n))
		given = append(given, fmt.Sprintf("--players %d", opts.Players))
	}
	if opts.SeedSet && opts.Seed != s.Seed {
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

// standingsPath is where the league's standings file is.
func standingsPath(opts Options) string {
	return store.Layout{Root: opts.DataDir, LeagueID: opts.Config.LeagueID}.Standings()
}

// port is the port for the i-th agent from first, or 0 (any free port).
func port(opts Options, first, i int) string {
	if opts.FreePorts {
		return "0"
	}
	return strconv.Itoa(first + i)
}

func checkPorts(opts Options) error {
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
	return launch.CheckPortsFree(net.Host, ports...)
}

// progress is the league as follow has read it from the feed: an
// engine.League, the one place where events are applied, so what is
// printed counts what the manager counts.
type progress struct {
	out    io.Writer
	emit   func(engine.Event) // --json's line for each event; nil for none
	league *engine.League
	// quietUntil: events up to this one were played before this run (a
	// resumed league); they are applied, not printed again.
	quietUntil int64
}

func newProgress(out io.Writer, emit func(engine.Event)) *progress {
	return &progress{out: out, emit: emit, league: engine.NewLeague("", engine.DefaultScoring())}
}

// follow prints a line per finished match and round until the league ends.
// A first interrupt pauses the league and waits for the running matches; a
// second, or the running matches all done, ends the run with an
// InterruptedError.
func follow(ctx context.Context, c *control.Client, p *progress, interrupts <-chan os.Signal) error {
	pages, stopFeed := readFeed(ctx, c, p.league.LastSeq())
	defer stopFeed()
	draining := false
	for {
		select {
		case page, ok := <-pages:
			if !ok {
				return ctx.Err()
			}
			if page.err != nil {
				return page.err
			}
			for _, ev := range page.Events {
				if finished, err := p.apply(ev); finished || err != nil {
					return err
				}
			}
			if page.StorageFailure != "" {
				done, total := p.league.Progress()
				return &StorageFailedError{Detail: page.StorageFailure, Done: done, Total: total}
			}
		case <-interrupts:
			if draining {
				return p.interrupted(false)
			}
			draining = true
			fmt.Fprintln(p.out, "leaguetui: pausing: no new match starts, running ones finish (Ctrl-C again to stop at once)")
			if err := c.Pause(ctx); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
		// Drained once the feed shows the pause and nothing running after it.
		if draining && p.league.State == engine.LeaguePaused && p.league.RunningCount() == 0 {
			return p.interrupted(true)
		}
	}
}

func (p *progress) interrupted(drained bool) *InterruptedError {
	done, total := p.league.Progress()
	return &InterruptedError{Drained: drained, Done: done, Total: total, Running: p.league.RunningCount()}
}

// apply applies an event to the league and prints what it means; finished
// is true once the league ends.
func (p *progress) apply(ev engine.Event) (finished bool, err error) {
	if err := p.league.Apply(ev); err != nil {
		fmt.Fprintf(p.out, "leaguetui: event %d left out: %v\n", ev.Seq, err)
		return false, nil
	}
	if ev.Seq <= p.quietUntil {
		return false, nil
	}
	if p.emit != nil {
		p.emit(ev)
	}
	done, total := p.league.Progress()
	switch ev.Kind {
	case engine.EventLeagueStarted:
		game := ev.Start.GameType
		if game != "" {
			game += ", "
		}
		if known := p.league.RoundCount(); ev.Start.RoundsPlanned > known {
			fmt.Fprintf(p.out, "league started: %s%s, %s, each paired when the one before ends\n", game,
				control.Plural(len(ev.Start.Players), "player"), control.Plural(ev.Start.RoundsPlanned, "round"))
			break
		}
		fmt.Fprintf(p.out, "league started: %s%s, %s, %s\n", game, control.Plural(len(ev.Start.Players), "player"),
			control.Plural(p.league.RoundCount(), "round"), control.Plural(total, "match"))
	case engine.EventRoundScheduled:
		fmt.Fprintf(p.out, "round %d paired: %s\n", ev.Round, control.Plural(len(ev.Schedule.Matches), "match"))
	case engine.EventMatchResult:
		fmt.Fprintf(p.out, "[%d/%d] %s\n", done, total, DescribeResult(*ev.Result))
	case engine.EventPlayerSuspended, engine.EventRestarted, engine.EventStalled:
		fmt.Fprintln(p.out, ev.Detail)
	case engine.EventRoundCompleted:
		fmt.Fprintf(p.out, "round %d completed\n", ev.Round)
	case engine.EventLeagueCompleted:
		fmt.Fprintln(p.out, "league completed")
		return true, nil
	case engine.EventStopped:
		return true, fmt.Errorf("the league was stopped before it completed, at %d of %d matches", done, total)
	case engine.EventStorageFailed: // from a manager that put it on the feed as an event
		return true, &StorageFailedError{Detail: ev.Detail, Done: done, Total: total}
	}
	return false, nil
}

// feedPage is one page of the event feed, or the error that ended it.
type feedPage struct {
	protocol.FeedPage
	err error
}

// readFeed reads the manager's event feed after cursor in the background,
// so that follow can wait on it and on Ctrl-C at once.
func readFeed(ctx context.Context, c *control.Client, cursor int64) (<-chan feedPage, func()) {
	ctx, cancel := context.WithCancel(ctx)
	pages := make(chan feedPage)
	go func() {
		defer close(pages)
		for {
			page, err := c.Events(ctx, cursor, 10*time.Second)
			if ctx.Err() != nil {
				return
			}
			select {
			case pages <- feedPage{FeedPage: page, err: err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
			cursor = page.LastSeq
		}
	}()
	return pages, cancel
}

// InterruptedError ends a run stopped by Ctrl-C. Its text says how far the
// league got and how to resume it.
type InterruptedError struct {
	Starting    bool // while the agents started: nothing was played
	Drained     bool // the running matches finished first
	Done, Total int
	Running     int // matches abandoned by a stop at once
	DataDir     string
	FreePorts   bool
}

func (e *InterruptedError) Error() string {
	if e.Starting {
		return "interrupted while the agents started; no match was played in this run"
	}
	how := "paused"
	if !e.Drained {
		how = fmt.Sprintf("stopped at once (running matches to play again: %d)", e.Running)
	}
	return fmt.Sprintf("interrupted: league %s at %d of %d matches, state saved; resume with: %s", how, e.Done, e.Total,
		ResumeCommand(e.DataDir, e.FreePorts, "--no-ui"))
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

// StorageFailedError ends a run whose manager could not write its
// journal: the league is paused with every acknowledged result saved.
// Its text says which path failed and how to resume once it is fixed.
type StorageFailedError struct {
	Detail      string // the manager's: the path, the error, that nothing acknowledged is lost
	Done, Total int    // matches journaled, as the feed told them
	Resume      string // the command that resumes the league
}

func (e *StorageFailedError) Error() string {
	return fmt.Sprintf("storage failure at %d of %d matches: %s; resume with: %s", e.Done, e.Total, e.Detail, e.Resume)
}

// DescribeResult is one line for a result: "R1M1 P01 vs P02: P01 wins".
func DescribeResult(r engine.Result) string {
	line := fmt.Sprintf("%s %s vs %s: ", r.MatchID, r.PlayerA, r.PlayerB)
	switch r.Status {
	case engine.StatusWin:
		return line + r.Winner + " wins"
	case engine.StatusDraw:
		return line + "draw"
	}
	if r.Winner == "" {
		return line + fmt.Sprintf("technical loss for both (%v)", r.Offenders)
	}
	return line + fmt.Sprintf("%s wins, technical loss for %v", r.Winner, r.Offenders)
}

// PrintStandings writes the standings as a table, with each player's Elo
// rating, its 95 % interval and the likelihood of superiority over the
// next line when the document carries ratings.
func PrintStandings(w io.Writer, s protocol.StandingsFile) {
	fmt.Fprintf(w, "league %s  seed %d  %d matches in %d rounds  %s\n\n", s.LeagueID, s.Seed, s.MatchesTotal, s.RoundsTotal, s.State)
	head := fmt.Sprintf("%4s  %-8s %-16s %6s %4s %4s %4s %4s %6s", "rank", "player", "name", "played", "W", "D", "L", "TL", "points")
	ratings := ratingsByPlayer(s.Ratings)
	if ratings != nil {
		head += fmt.Sprintf(" %6s %6s %5s", "elo", "±95%", "los")
	}
	fmt.Fprintln(w, head)
	for _, r := range s.Standings {
		line := fmt.Sprintf("%4d  %-8s %-16s %6d %4d %4d %4d %4d %6d", r.Rank, r.PlayerID, r.DisplayName, r.Played,
			r.Wins, r.Draws, r.Losses, r.TechnicalLosses, r.Points)
		if ratings != nil {
			line += FormatRating(ratings[r.PlayerID])
		}
		if r.Status != "" {
			line += "  " + r.Status // SUSPENDED
		}
		fmt.Fprintln(w, line)
	}
	if s.SPRT != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, DescribeSPRT(*s.SPRT))
	}
}

// DescribeSPRT is the test's state as cutechess and fastchess print it:
// the score, the log-likelihood ratio with its bounds, and the verdict.
func DescribeSPRT(st engine.SPRTStatus) string {
	n := st.Wins + st.Draws + st.Losses
	score := 0.0
	if n > 0 {
		score = (float64(st.Wins) + float64(st.Draws)/2) / float64(n)
	}
	verdict := "no hypothesis accepted yet"
	switch st.Verdict {
	case engine.VerdictH0:
		verdict = "H0 was accepted"
	case engine.VerdictH1:
		verdict = "H1 was accepted"
	}
	return fmt.Sprintf("Score of challenger: %d - %d - %d  [%.3f] %d\nSPRT (%s): llr %.3f, lbound %.3f, ubound %.3f - %s",
		st.Wins, st.Losses, st.Draws, score, n, st.Test, st.LLR, st.Lower, st.Upper, verdict)
}

// ratingsByPlayer indexes a ratings section by player, nil without one.
func ratingsByPlayer(doc *protocol.RatingsDoc) map[string]protocol.RatingRow {
	if doc == nil {
		return nil
	}
	out := make(map[string]protocol.RatingRow, len(doc.Players))
	for _, r := range doc.Players {
		out[r.PlayerID] = r
	}
	return out
}

// FormatRating is a rating's three columns: Elo, ± its 95 % half-width and
// the likelihood of superiority over the next player ("-" where none).
func FormatRating(r protocol.RatingRow) string {
	if !r.Rated {
		return fmt.Sprintf(" %6s %6s %5s", "-", "-", "-")
	}
	los := "-"
	if r.LOSNext != nil {
		los = fmt.Sprintf("%.2f", *r.LOSNext)
	}
	return fmt.Sprintf(" %+6.0f %6s %5s", r.Elo, fmt.Sprintf("±%.0f", r.CI95), los)
}

// RefereeKeyEnv names the environment variable that holds the referee key
// a manager admits referees with, and that referees present.
const RefereeKeyEnv = config.RefereeKeyEnv

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
