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
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/agents/launch"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/report"
	"github.com/leaguetui/leaguetui/agents/season"
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
	// Roster lists who plays (and who referees): built-in strategies,
	// model players, programs to start and outside agents to wait for.
	// Nil: --players built-in players and --referees referees.
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
	// Run resumes it); nil for a new league.
	Resumed *protocol.StandingsFile

	lock   *store.DataLock // the data folder is ours (and the manager's) until Stop
	notify func(string)
	// playerNames are the names of the players the league was started
	// for (the roster's, or the built-in ones'): the others take seats.
	playerNames []string
	joinCodes   store.JoinCodes // of its own players but the programs, see seatArgs
}

// say tells Options.Notify, if any.
func (l *League) say(line string) {
	if l.notify != nil {
		l.notify(line)
	}
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
	var stopping sync.WaitGroup
	for _, p := range l.Programs {
		stopping.Go(func() { p.Stop(5 * time.Second) })
	}
	stopAll(l.Players)
	stopping.Wait()
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
	if err := opts.CheckSize(); err != nil {
		return err
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
	out := newOutput(opts)
	if opts.Notify == nil {
		opts.Notify = func(line string) { fmt.Fprintln(out.progress, "leaguetui: "+line) }
	}
	league, err := Launch(startCtx, opts)
	if league != nil {
		defer league.Stop()
	}
	if err == nil && opts.WebAddr != "" {
		err = ServeWeb(ctx, league.Control.Base(), opts.WebAddr, out.progress)
	}
	if err == nil {
		err = awaitJoining(startCtx, league, opts, out)
	}
	var progress *progress
	if err == nil {
		progress, err = begin(startCtx, league, opts, out)
	}
	close(started)
	if err == nil && progress != nil {
		watchCtx, stopWatch := context.WithCancel(ctx)
		defer stopWatch()
		go league.WatchLeagueBudget(watchCtx, opts)
	}
	resume := ResumeCommand(opts.DataDir, opts.FreePorts, "--no-ui")
	if startCtx.Err() != nil && ctx.Err() == nil {
		return &InterruptedError{Starting: true, DataDir: opts.DataDir, FreePorts: opts.FreePorts, Resumable: league.unfinished()}
	}
	if err != nil {
		if league.unfinished() {
			// A league under way that could not be carried on (an agent
			// or the manager that died as it started) is saved all the
			// same: the same command tries again.
			return league.halted(err, league.Resumed.MatchesDone, league.Resumed.MatchesTotal, resume)
		}
		return league.managerExited(err)
	}
	if progress == nil { // completed before this run: its final standings
		standings, err := league.printStandings(ctx, out)
		if err == nil {
			err = league.finalStandings(opts, standings, out.progress)
		}
		if err != nil {
			return err
		}
		return finish(opts, opts.Config.LeagueID, nil, out.progress)
	}
	if err := follow(ctx, league.Control, progress, opts.Interrupts); err != nil {
		var stopped *InterruptedError
		var storage *StorageFailedError
		var ended *LeagueStoppedError
		switch {
		case errors.As(err, &stopped):
			league.Stop() // the manager saves its state before it exits
			stopped.DataDir, stopped.FreePorts = opts.DataDir, opts.FreePorts
		case errors.As(err, &storage):
			storage.Resume = resume
		case errors.As(err, &ended), ctx.Err() != nil:
			// The admin's stop ends the league for good: nothing resumes it.
		default:
			done, total := progress.league.Progress()
			return league.halted(err, done, total, resume)
		}
		return err
	}
	standings, err := league.printStandings(ctx, out)
	if err != nil {
		// The journal holds the completed league: the same command prints it.
		return fmt.Errorf("the league completed, but its standings could not be read: %w; print them with: %s", err, resume)
	}
	if err := league.finalStandings(opts, standings, out.progress); err != nil {
		return fmt.Errorf("%w; the same command writes it from the journal: %s", err, resume)
	}
	return finish(opts, opts.Config.LeagueID, &standings, out.progress)
}

// finish is what follows a completed league: its exports, and its results
// added to the season (once: a run of the same command adds nothing more).
func finish(opts Options, leagueID string, final *protocol.StandingsFile, progress io.Writer) error {
	if err := writeExports(opts, leagueID); err != nil {
		return err
	}
	return AddToSeason(opts.Config.Season, opts.DataDir, leagueID, final, opts.Roster, progress)
}

// AddToSeason adds a completed league to the season folder, if one is
// given, and says so on progress; final is its final standings as the
// manager served them (nil: standings.json).
func AddToSeason(dir, dataDir, leagueID string, final *protocol.StandingsFile, roster *config.Roster, progress io.Writer) error {
	if dir == "" {
		return nil
	}
	var names map[string]string
	if roster != nil {
		names = roster.SeasonNames
	}
	added, err := season.Add(dir, dataDir, leagueID, final, names)
	switch {
	case err != nil:
		return fmt.Errorf("--season %s: %w", dir, err)
	case added:
		fmt.Fprintf(progress, "leaguetui: league %s added to the season %s (see: leaguetui season %s)\n", leagueID, dir, dir)
	default:
		fmt.Fprintf(progress, "leaguetui: the season %s holds league %s already\n", dir, leagueID)
	}
	return nil
}

// printStandings prints the league's final standings on stdout.
func (l *League) printStandings(ctx context.Context, out *output) (protocol.StandingsFile, error) {
	standings, err := l.Control.Standings(ctx)
	if err != nil {
		return standings, err
	}
	out.standings(standings, l.modelCosts(ctx))
	return standings, nil
}

// unfinished says the data folder holds a league that has started and not
// ended, which the same command carries on whatever stopped this run.
func (l *League) unfinished() bool {
	return l != nil && l.Resumed != nil && !l.Finished()
}

// managerExitWait bounds how long a run that lost its manager's answers
// waits to learn whether the manager process has exited: the connection
// breaks as the process dies, a moment before it is reaped.
const managerExitWait = 2 * time.Second

// halted is the error that ends a run of a league under way for any
// reason but Ctrl-C, a storage failure or the admin's stop: the reason,
// the manager's exit first when it has exited (its answers are gone with
// it), how far the league got and the command that resumes it. The journal
// holds every result acknowledged, so nothing of it is lost.
func (l *League) halted(err error, done, total int, resume string) error {
	return &HaltedError{Err: l.managerExited(err), Done: done, Total: total, Resume: resume}
}

// managerExited is err, or, when the manager process has exited, a
// ManagerExitedError that says so first, caused by err.
func (l *League) managerExited(err error) error {
	if l == nil || l.Manager == nil {
		return err
	}
	wait := time.Duration(0)
	if lostConnection(err) {
		wait = managerExitWait
	}
	if exited, status := l.Manager.Exited(wait); exited {
		return &ManagerExitedError{PID: l.Manager.PID(), Status: status, Cause: err}
	}
	return err
}

// lostConnection says err is a broken or refused connection: what a
// client of a process that died meets.
func lostConnection(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// HaltedError ends a run whose league stopped short of its end for a
// reason other than Ctrl-C or a storage failure: an agent or the manager
// that died, an answer that did not come. Its text says why, how far the
// league got and how to resume it.
type HaltedError struct {
	Err         error
	Done, Total int // matches journaled
	Resume      string
}

func (e *HaltedError) Error() string {
	return fmt.Sprintf("%v; league at %d of %d matches, state saved; resume with: %s", e.Err, e.Done, e.Total, e.Resume)
}

func (e *HaltedError) Unwrap() error { return e.Err }

// ManagerExitedError says the manager process leaguetui started has
// exited under it.
type ManagerExitedError struct {
	PID    int
	Status error // from its wait: "signal: killed", "exit status 1"; nil for status 0
	Cause  error // what the run met: the manager's answers gone
}

func (e *ManagerExitedError) Error() string {
	status := "exit status 0"
	if e.Status != nil {
		status = e.Status.Error()
	}
	return fmt.Sprintf("the manager (PID %d) exited (%s)", e.PID, status)
}

func (e *ManagerExitedError) Unwrap() error { return e.Cause }

// LeagueStoppedError ends a run whose league the admin stopped: it cannot
// go on, so there is nothing to resume.
type LeagueStoppedError struct{ Done, Total int }

func (e *LeagueStoppedError) Error() string {
	return fmt.Sprintf("the league was stopped before it completed, at %d of %d matches", e.Done, e.Total)
}

// CheckSize checks that the league has players and a referee: at least
// two players (the roster's and the open seats) and one referee; and that
// a gauntlet's challengers are among those players.
func (opts Options) CheckSize() error {
	if opts.Roster != nil {
		players, referees := len(opts.Roster.Players)+opts.Config.Joining.OpenSeats, len(refereeEntries(opts))
		if players < 2 || referees < 1 {
			return fmt.Errorf("roster %s: a league needs at least 2 players (with the open seats) and 1 referee (got %d and %d)",
				opts.Roster.Path, players, referees)
		}
		return opts.Config.Format.CheckChallengers(players)
	}
	if opts.Players+opts.Config.Joining.OpenSeats < 2 || opts.Referees < 1 {
		return fmt.Errorf("a league needs at least 2 players and 1 referee (got --players %d --referees %d)", opts.Players, opts.Referees)
	}
	return opts.Config.Format.CheckChallengers(opts.Players + opts.Config.Joining.OpenSeats)
}

// awaitJoining waits, for a new league, until the roster's programs and
// outside agents and the open seats have registered, or the join window
// has passed, saying on stderr where to register and who joins.
func awaitJoining(ctx context.Context, league *League, opts Options, out *output) error {
	w := league.NewWaiter(opts)
	if league.Resumed != nil {
		w = league.NewReturnWaiter(opts)
	}
	if w == nil {
		return nil
	}
	start := w.State()
	window := ""
	if start.Window > 0 {
		window = fmt.Sprintf(" for at most %s", start.Window)
	}
	fmt.Fprintf(out.progress, "leaguetui: waiting%s for %s; register at %s\n", window, start.Waiting(), start.URL)
	end, err := w.Await(ctx, func(j Joining) {
		line := "leaguetui: joined: " + j.Joined[len(j.Joined)-1]
		if !j.Complete() {
			line += "; waiting for " + j.Waiting()
		}
		fmt.Fprintln(out.progress, line)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out.progress, "leaguetui: %s\n", end.DescribeEnd())
	return nil
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
// to play: the league was completed before this run.
func begin(ctx context.Context, league *League, opts Options, out *output) (*progress, error) {
	if health, err := league.Control.Health(ctx); err == nil && health.OpenReferees {
		fmt.Fprintln(out.progress, "leaguetui: the league is open: its manager admits any referee, without the referee key (--open-referees)")
	}
	status := league.Resumed
	if status == nil {
		fmt.Fprintf(out.progress, "leaguetui: seed %d (repeat this league with --seed %d)\n", opts.Seed, opts.Seed)
		return newProgress(out.progress, out.event), league.Control.Start(ctx)
	}
	// A league completed before this run has nothing left to play: its
	// final standings are the answer (a run killed as it completed is
	// run again to get them), said on stderr to be of an earlier run.
	switch status.State {
	case engine.LeagueCompleted:
		fmt.Fprintf(out.progress, "leaguetui: %s: it was completed before this run, which plays nothing and starts no agent; "+
			"its final standings follow (file: %s); for a new league, pass another --data folder\n",
			DescribeLeague(opts.DataDir, *status), standingsPath(opts))
		return nil, nil
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
	if opts.Roster != nil {
		opts.Players = len(opts.Roster.Players)
		opts.Referees = len(refereeEntries(opts))
	}
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
	league := &League{lock: lock, notify: opts.Notify}
	if league.AdminToken, league.AdminTokenFile, err = adminToken(cfg, layout); err != nil {
		return league, err
	}
	if err := removeCutWrites(layout); err != nil {
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
	players, err := playerEntries(opts)
	if err != nil {
		return league, err
	}
	league.playerNames = names(players)
	managerArgs := []string{"manager", "--hold", "--port", port(opts, cfg.Network.ManagerPort, 0),
		"--seed", strconv.FormatInt(opts.Seed, 10), "--reserve", strings.Join(names(players), ",")}
	if opts.OpenReferees {
		managerArgs = append(managerArgs, "--open-referees")
	}
	seats, err := league.seatArgs(opts, layout, players)
	if err != nil {
		return league, err
	}
	managerArgs = append(managerArgs, seats...)

	manager, err := launch.Start(ctx, opts.Executable, launch.Spec{
		Name: "manager", OutputPath: output("league_manager"),
		Args:     append(managerArgs, common...),
		Env:      append([]string{AdminTokenEnv + "=" + league.AdminToken, keyEnv}, opts.Env...),
		DataLock: lock.File(),
	}, ready)
	if err != nil {
		return league, err
	}
	league.Manager = manager
	league.addLeagueEndpoint(manager.Endpoint)
	league.Control = control.New(manager.Endpoint, league.AdminToken)
	ctx, stopWatching := league.whileManagerRuns(ctx)
	defer stopWatching()
	if err := league.checkResumed(ctx, &opts); err != nil {
		return league, err
	}
	if league.Resumed != nil { // its players, as many as it had
		if players, err = playerEntries(opts); err != nil {
			return league, err
		}
	} else if opts.StartArgs != nil {
		if err := store.SaveStartSpec(opts.DataDir, store.StartSpec{Args: opts.StartArgs}); err != nil {
			return league, fmt.Errorf("cannot remember how the league was started: %w", err)
		}
	}
	if err := rebuildDerived(layout, strategyOf(players)); err != nil {
		return league, err
	}
	if league.Finished() {
		// Nothing is left to play: no agent is started, so none registers
		// again in the finished league's journal. The manager alone serves
		// the league as it ended.
		return league, nil
	}

	refereeArgs, err := league.startPages(ctx, opts, output("pages"), common)
	if err != nil {
		return league, err
	}
	referees := refereeEntries(opts)
	started, err := startConcurrently(ctx, len(referees), func(ctx context.Context, i int) (*launch.Child, error) {
		e := referees[i]
		switch e.Kind() {
		case config.KindExternal:
			return nil, nil
		case config.KindProgram: // admitted with the league's referee key, in its environment
			return nil, league.startProgram(opts, e, league.say, keyEnv)
		}
		child, err := launch.Start(ctx, opts.Executable, launch.Spec{
			Name: "referee " + e.Name, OutputPath: output(e.Name), Register: true,
			Args: append([]string{"referee", "--port", port(opts, cfg.Network.RefereePortFirst, i),
				"--manager", manager.Endpoint, "--name", e.Name}, refereeArgs...),
			Env: append([]string{keyEnv}, opts.Env...),
		}, ready)
		if err == nil {
			league.addLeagueEndpoint(child.Endpoint)
		}
		return child, err
	})
	league.Referees = started
	if err != nil {
		return league, managerGone(ctx, err)
	}
	started, err = startConcurrently(ctx, len(players), func(ctx context.Context, i int) (*launch.Child, error) {
		e := players[i]
		switch e.Kind() {
		case config.KindExternal:
			return nil, nil
		case config.KindProgram:
			return nil, league.startProgram(opts, e, league.say, "")
		}
		args := append([]string{"player", "--port", port(opts, cfg.Network.PlayerPortFirst, i),
			"--manager", manager.Endpoint, "--name", e.Name, "--strategy", e.Strategy,
			"--seed", strconv.FormatInt(opts.Seed, 10)}, common...)
		return launch.Start(ctx, opts.Executable, launch.Spec{
			Name: "player " + e.Name, OutputPath: output(e.Name), Register: true,
			Args: append(args, modelArgs(e)...),
			Env:  append(slices.Clone(opts.Env), league.joinCodeEnv(e.Name)...),
		}, ready)
	})
	league.Players = started
	if err != nil {
		return league, managerGone(ctx, err)
	}
	return league, nil
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
	if n := len(status.Standings); n > 0 && opts.Roster == nil && !opts.PlayersSet {
		opts.Players = n // an older folder's league, which remembers no --players
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
	// The standings count the open seats taken too.
	if n := len(s.Standings); opts.PlayersSet && opts.Roster == nil && n > 0 && (n < opts.Players || n > opts.Players+opts.Config.Joining.OpenSeats) {
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
		if ev.Detail != "" { // a separating match: why it was chosen, and how many pairs are unsure
			fmt.Fprintf(p.out, "round %d paired: %s\n", ev.Round, ev.Detail)
			break
		}
		fmt.Fprintf(p.out, "round %d paired: %s\n", ev.Round, control.Plural(len(ev.Schedule.Matches), "match"))
	case engine.EventMatchResult:
		fmt.Fprintf(p.out, "[%d/%d] %s\n", done, total, DescribeResult(*ev.Result))
	case engine.EventPlayerSuspended, engine.EventRefereeSuspended, engine.EventRestarted, engine.EventStalled:
		fmt.Fprintln(p.out, ev.Detail)
	case engine.EventRoundCompleted:
		fmt.Fprintf(p.out, "round %d completed\n", ev.Round)
	case engine.EventLeagueCompleted:
		fmt.Fprintln(p.out, "league completed")
		return true, nil
	case engine.EventStopped:
		return true, &LeagueStoppedError{Done: done, Total: total}
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
	Resumable   bool // with Starting: the data folder holds a league under way
	Drained     bool // the running matches finished first
	Done, Total int
	Running     int // matches abandoned by a stop at once
	DataDir     string
	FreePorts   bool
}

func (e *InterruptedError) Error() string {
	if e.Starting {
		if e.Resumable {
			return "interrupted while the agents started; no match was played in this run; resume with: " +
				ResumeCommand(e.DataDir, e.FreePorts, "--no-ui")
		}
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
	if s.Separation != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, DescribeSeparation(*s.Separation))
	}
}

// DescribeSeparation is an --until-separated league's state in a line.
func DescribeSeparation(st engine.SeparationStatus) string {
	line := fmt.Sprintf("until-separated: %d of %d separating matches played", st.Played, st.Limit)
	if st.Known {
		line += fmt.Sprintf("; %d of %d adjacent pairs unsure (the 95%% interval of their difference spans 0)", st.Unsure, st.Pairs)
	}
	return line
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
func startConcurrently(ctx context.Context, n int, start func(ctx context.Context, i int) (*launch.Child, error)) ([]*launch.Child, error) {
	children := make([]*launch.Child, n)
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
	return slices.DeleteFunc(children, func(c *launch.Child) bool { return c == nil }), err
}

// StartParallelism is how many agents leaguetui starts at once: a few per
// core, since an agent starting spends most of its time waiting for its
// registration's answer.
func StartParallelism() int { return 4 * runtime.NumCPU() }
