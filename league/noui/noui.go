// Package noui runs a whole league without a console (`leaguetui --no-ui`,
// for CI): a presenter of the league's lifecycle (league/lifecycle, which
// launches, starts or resumes, completes and stops it), it follows the
// league on its feed, prints its progress to stderr and the final
// standings to stdout (or JSON lines).
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
	"github.com/leaguetui/leaguetui/league/launcher"
	"github.com/leaguetui/leaguetui/league/lifecycle"
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
// returns when it is completed. The league's lifecycle is
// league/lifecycle's; Run follows the league on its feed and shows it.
func Run(ctx context.Context, spec launcher.Spec, outs Outputs) error {
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
	league, err := lifecycle.Launch(startCtx, spec, presenter{out: out, spec: spec},
		lifecycle.Options{WebAddr: outs.WebAddr, WebOut: out.progress, CSVDir: outs.CSVDir})
	var launched *launcher.League // what was started, for the errors that say how far it got
	if league != nil {
		defer league.Stop()
		launched = league.League
	}
	var begun lifecycle.Begun
	if err == nil {
		begun, err = league.Begin(startCtx)
	}
	close(started)
	if startCtx.Err() != nil && ctx.Err() == nil {
		return &InterruptedError{Starting: true, DataDir: spec.DataDir, FreePorts: spec.FreePorts, Resumable: launched.Unfinished()}
	}
	resume := launcher.ResumeCommand(spec.DataDir, spec.FreePorts, "--no-ui")
	if err != nil {
		if launched.Unfinished() {
			// A league under way that could not be carried on (an agent
			// or the manager that died as it started) is saved all the
			// same: the same command tries again.
			return halted(launched, err, launched.Resumed.MatchesDone, launched.Resumed.MatchesTotal, resume)
		}
		return managerExited(launched, err)
	}
	if !begun.Plays() { // completed before this run: its final standings
		return completedBefore(ctx, league, spec, out)
	}
	progress := newProgress(out.progress, out.event)
	if begun.Resumed != nil {
		progress.quietUntil = begun.Resumed.Version
	}
	if err := follow(ctx, league.Control, progress, outs.Interrupts); err != nil {
		return stoppedShort(ctx, league, spec, progress, resume, err)
	}
	league.FinishWeb(ctx)
	standings, err := printStandings(ctx, league.League, out)
	if err != nil {
		// The journal holds the completed league: the same command prints it.
		return fmt.Errorf("the league completed, but its standings could not be read: %w; print them with: %s", err, resume)
	}
	if err := finalStandings(league.League, spec, standings, out.progress); err != nil {
		return fmt.Errorf("%w; the same command writes it from the journal: %s", err, resume)
	}
	return league.Complete(&standings)
}

// completedBefore prints the final standings of a league completed before
// this run, and completes it again: the exports are written anew, and a
// season that holds it already says so.
func completedBefore(ctx context.Context, league *lifecycle.League, spec launcher.Spec, out *output) error {
	league.FinishWeb(ctx)
	standings, err := printStandings(ctx, league.League, out)
	if err == nil {
		err = finalStandings(league.League, spec, standings, out.progress)
	}
	if err != nil {
		return err
	}
	return league.Complete(nil)
}

// stoppedShort is the error of a league whose following ended before it
// completed: Ctrl-C (the league saved as its manager stops), a storage
// failure, the admin's stop, a signal, or anything else that halted it.
func stoppedShort(ctx context.Context, league *lifecycle.League, spec launcher.Spec, progress *progress, resume string, err error) error {
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
		league.FinishWeb(ctx)
	case ctx.Err() != nil:
	default:
		done, total := progress.league.Progress()
		return halted(league.League, err, done, total, resume)
	}
	return err
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
