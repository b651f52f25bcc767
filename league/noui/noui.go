// Package noui runs a whole league without a console (`leaguetui --no-ui`,
// for CI): it launches the league (league/launcher), starts it, prints its
// progress to stderr and the final standings to stdout (or JSON lines),
// writes the exports and the season, and stops every process it started.
package noui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/launcher"
	"github.com/leaguetui/leaguetui/league/report"
	"github.com/leaguetui/leaguetui/league/season"
	"github.com/leaguetui/leaguetui/league/web"
)

// Outputs are what a run without a console shows and writes, besides the
// league's data folder.
type Outputs struct {
	Stdout io.Writer // final standings (and the events with JSON)
	Stderr io.Writer // progress
	JSON   bool      // --json: the events and the final standings as JSON lines on stdout
	Quiet  bool      // --quiet: no progress, no events; only the final standings
	// CSVDir, when set, gets the league's exports (league/report) once
	// it has completed: standings.csv, crosstable.csv, matches.csv and
	// results.jsonl.
	CSVDir string
	// WebAddr, when set, serves the live web view (league/web) of the
	// league on that address while it runs.
	WebAddr string
	// Interrupts are the Ctrl-C presses: the first drains the league (no
	// new match starts, running ones finish, the state is saved), the
	// second stops it at once. Nil: only ctx ends a run early.
	Interrupts <-chan os.Signal
}

// Run plays a whole league, or resumes the one the data folder holds, and
// returns when it is completed.
func Run(ctx context.Context, spec launcher.Spec, outs Outputs) error {
	if err := spec.CheckSize(); err != nil {
		return err
	}
	// Ctrl-C while the agents start gives up at once: nothing has been
	// played yet, and there is nothing to drain.
	startCtx, giveUp := context.WithCancel(ctx)
	defer giveUp()
	started := make(chan struct{})
	go func() {
		select {
		case <-outs.Interrupts:
			giveUp()
		case <-started:
		}
	}()
	out := newOutput(outs)
	out.order = spec.Config.Scoring.Tiebreakers
	if spec.Notify == nil {
		spec.Notify = func(line string) { fmt.Fprintln(out.progress, "leaguetui: "+line) }
	}
	league, err := launcher.Launch(startCtx, spec)
	if league != nil {
		defer league.Stop()
	}
	var view *web.Server
	if err == nil && outs.WebAddr != "" {
		view, err = web.Serve(ctx, league.Control.Base(), outs.WebAddr, out.progress)
	}
	if err == nil {
		err = awaitJoining(startCtx, league, spec, out)
	}
	var progress *progress
	if err == nil {
		progress, err = begin(startCtx, league, spec, out)
	}
	close(started)
	if err == nil && progress != nil {
		watchCtx, stopWatch := context.WithCancel(ctx)
		defer stopWatch()
		go league.WatchLeagueBudget(watchCtx, spec)
	}
	resume := launcher.ResumeCommand(spec.DataDir, spec.FreePorts, "--no-ui")
	if startCtx.Err() != nil && ctx.Err() == nil {
		return &InterruptedError{Starting: true, DataDir: spec.DataDir, FreePorts: spec.FreePorts, Resumable: league.Unfinished()}
	}
	if err != nil {
		if league.Unfinished() {
			// A league under way that could not be carried on (an agent
			// or the manager that died as it started) is saved all the
			// same: the same command tries again.
			return halted(league, err, league.Resumed.MatchesDone, league.Resumed.MatchesTotal, resume)
		}
		return managerExited(league, err)
	}
	if progress == nil { // completed before this run: its final standings
		finishWeb(ctx, view, out.progress)
		standings, err := printStandings(ctx, league, out)
		if err == nil {
			err = finalStandings(league, spec, standings, out.progress)
		}
		if err != nil {
			return err
		}
		return finish(spec, outs, spec.Config.LeagueID, nil, out.progress)
	}
	if err := follow(ctx, league.Control, progress, outs.Interrupts); err != nil {
		var stopped *InterruptedError
		var storage *StorageFailedError
		var ended *LeagueStoppedError
		switch {
		case errors.As(err, &stopped):
			league.Stop() // the manager saves its state before it exits
			stopped.DataDir, stopped.FreePorts = spec.DataDir, spec.FreePorts
		case errors.As(err, &storage):
			storage.Resume = resume
		case errors.As(err, &ended):
			// The admin's stop ends the league for good: nothing resumes it.
			finishWeb(ctx, view, out.progress)
		case ctx.Err() != nil:
		default:
			done, total := progress.league.Progress()
			return halted(league, err, done, total, resume)
		}
		return err
	}
	finishWeb(ctx, view, out.progress)
	standings, err := printStandings(ctx, league, out)
	if err != nil {
		// The journal holds the completed league: the same command prints it.
		return fmt.Errorf("the league completed, but its standings could not be read: %w; print them with: %s", err, resume)
	}
	if err := finalStandings(league, spec, standings, out.progress); err != nil {
		return fmt.Errorf("%w; the same command writes it from the journal: %s", err, resume)
	}
	return finish(spec, outs, spec.Config.LeagueID, &standings, out.progress)
}

// finishWeb ends the web view's streams (--web) on the league's final
// standings before the manager stops, so that an open page ends on that
// table and not on a manager that no longer answers; a view that cannot
// is said on stderr, and the run goes on.
func finishWeb(ctx context.Context, view *web.Server, progress io.Writer) {
	if view == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, web.FinishTimeout)
	defer cancel()
	if err := view.Finish(ctx); err != nil {
		fmt.Fprintf(progress, "leaguetui: %v\n", err)
	}
}

// finish is what follows a completed league: its exports, and its results
// added to the season (once: a run of the same command adds nothing more).
func finish(spec launcher.Spec, outs Outputs, leagueID string, final *protocol.StandingsFile, progress io.Writer) error {
	if err := writeExports(spec.DataDir, outs.CSVDir, leagueID); err != nil {
		return err
	}
	return season.AddLeague(spec.Config.Season, spec.DataDir, leagueID, final, spec.Roster.NamesInSeason(), progress)
}

// printStandings prints the league's final standings on stdout.
func printStandings(ctx context.Context, l *launcher.League, out *output) (protocol.StandingsFile, error) {
	standings, err := l.Control.Standings(ctx)
	if err != nil {
		return standings, err
	}
	out.standings(standings, l.ModelCosts(ctx))
	return standings, nil
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
func halted(l *launcher.League, err error, done, total int, resume string) error {
	return &HaltedError{Err: managerExited(l, err), Done: done, Total: total, Resume: resume}
}

// managerExited is err, or, when the manager process has exited, a
// ManagerExitedError that says so first, caused by err.
func managerExited(l *launcher.League, err error) error {
	if l == nil || l.Manager == nil {
		return err
	}
	wait := time.Duration(0)
	if lostConnection(err) {
		wait = managerExitWait
	}
	if exited, status := l.Manager.Exited(wait); exited {
		return &launcher.ManagerExitedError{PID: l.Manager.PID(), Status: status, Cause: err}
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

func (e *HaltedError) Unwrap() error { return e.Err }

func (e *HaltedError) Error() string {
	return fmt.Sprintf("%v; league at %d of %d matches, state saved; resume with: %s", e.Err, e.Done, e.Total, e.Resume)
}

// LeagueStoppedError ends a run whose league the admin stopped: it cannot
// go on, so there is nothing to resume.
type LeagueStoppedError struct{ Done, Total int }

func (e *LeagueStoppedError) Error() string {
	return fmt.Sprintf("the league was stopped before it completed, at %d of %d matches", e.Done, e.Total)
}

// awaitJoining waits, for a new league, until the roster's programs and
// outside agents and the open seats have registered, or the join window
// has passed, saying on stderr where to register and who joins.
func awaitJoining(ctx context.Context, league *launcher.League, spec launcher.Spec, out *output) error {
	w := league.NewWaiter(spec)
	if league.Resumed != nil {
		w = league.NewReturnWaiter(spec)
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
	end, err := w.Await(ctx, func(j launcher.Joining) {
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

// writeExports writes the league's exports into --csv's folder, read from
// the data folder the league has just completed in.
func writeExports(dataDir, csvDir, leagueID string) error {
	if csvDir == "" {
		return nil
	}
	l, err := report.Load(dataDir, leagueID)
	if err == nil {
		err = l.WriteExports(csvDir)
	}
	if err != nil {
		return fmt.Errorf("--csv %s: %w", csvDir, err)
	}
	return nil
}

// begin starts a new league, or resumes the one the journal holds, and
// says which on stderr. It returns nil progress when there is nothing left
// to play: the league was completed before this run.
func begin(ctx context.Context, league *launcher.League, spec launcher.Spec, out *output) (*progress, error) {
	if health, err := league.Control.Health(ctx); err == nil && health.OpenReferees {
		fmt.Fprintln(out.progress, "leaguetui: the league is open: its manager admits any referee, without the referee key (--open-referees)")
	}
	status := league.Resumed
	if status == nil {
		fmt.Fprintf(out.progress, "leaguetui: seed %d (repeat this league with --seed %d)\n", league.Seed, league.Seed)
		return newProgress(out.progress, out.event), league.Control.Start(ctx)
	}
	// A league completed before this run has nothing left to play: its
	// final standings are the answer (a run killed as it completed is
	// run again to get them), said on stderr to be of an earlier run.
	switch status.State {
	case engine.LeagueCompleted:
		fmt.Fprintf(out.progress, "leaguetui: %s: it was completed before this run, which plays nothing and starts no agent; "+
			"its final standings follow (file: %s); for a new league, pass another --data folder\n",
			launcher.DescribeLeague(spec.DataDir, *status), spec.StandingsPath())
		return nil, nil
	case engine.LeagueStopped:
		return nil, fmt.Errorf("%s: it was stopped and cannot go on; for a new league, pass another --data folder",
			launcher.DescribeLeague(spec.DataDir, *status))
	}
	fmt.Fprintf(out.progress, "leaguetui: %s\n", launcher.DescribeLeague(spec.DataDir, *status))
	fmt.Fprintf(out.progress, "leaguetui: resuming league %s (seed %d) from its journal: %d of %d matches done\n",
		status.LeagueID, status.Seed, status.MatchesDone, status.MatchesTotal)
	p := newProgress(out.progress, out.event)
	p.quietUntil = status.Version
	if status.State == engine.LeaguePaused {
		return p, league.Control.Resume(ctx)
	}
	return p, nil
}
