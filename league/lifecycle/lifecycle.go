// Package lifecycle owns one league from its launch to its stop, for the
// console and `leaguetui --no-ui` alike: its processes launched
// (league/launcher), its web view (league/web), the agents it waits for,
// its start or resume, its model budget, what follows its completion (the
// exports and the season, league/season) and its stop.
//
// It decides every step and shows none: what happens is told to a
// Presenter. The console's presenter writes its log and the lines around
// its screen; --no-ui's prints them on stderr. How each follows the league
// while it plays (the console's screen, --no-ui's reading of the feed) is
// its own.
package lifecycle

import (
	"context"
	"io"
	"log/slog"
	"sync"

	"github.com/leaguetui/leaguetui/league/launcher"
	"github.com/leaguetui/leaguetui/league/web"
)

// Presenter shows what happens to a league. Its methods are called in the
// order of the lifecycle; each is told what happened, and decides nothing.
type Presenter interface {
	// Launching is told before the agents start.
	Launching(players, referees int)
	// Launched is told once the league's processes run;
	// league.Resumed says the data folder held the league.
	Launched(league *launcher.League)
	// Joining is told who the league waits for: when the wait starts,
	// each time someone joins, and when it ends (after a failed wait,
	// nothing more: the error says why).
	Joining(step JoinStep, who launcher.Joining)
	// Beginning is told how a headless league begins (Begin), before it
	// is started or resumed.
	Beginning(b Begun)
	// Say tells what happens along the way: a roster program restarted,
	// the model budget spent, the league added to its season. With err
	// set, msg names a step that failed without ending the run, and err
	// says why.
	Say(level slog.Level, msg string, err error)
	// Stopped is told once every process of the league has stopped.
	Stopped(league *launcher.League)
}

// JoinStep is where a wait for joiners is.
type JoinStep int

const (
	JoinWaiting JoinStep = iota // the wait starts
	JoinJoined                  // someone has joined
	JoinEnded                   // everyone is there, the window has passed, or the league was started anyway
)

// Options are what a front end asks of a league besides its spec.
type Options struct {
	// WebAddr, when set, serves the league's live web view there
	// (--web); WebOut is told its address.
	WebAddr string
	WebOut  io.Writer
	// CSVDir, when set, gets a completed league's exports (--csv, which
	// goes with --no-ui).
	CSVDir string
}

// League is a launched league: its processes (the embedded
// launcher.League) and what the lifecycle keeps of it.
type League struct {
	*launcher.League
	spec launcher.Spec
	opts Options
	p    Presenter
	// waiter follows who the league waits for; nil when nobody.
	waiter *launcher.Waiter

	view     *web.Server
	webOnce  sync.Once // the web view's pages are told the final standings once
	stopOnce sync.Once
}

// Launch checks the league's size, starts its processes and serves its
// web view. On an error the League returned, if any, holds what was
// started: Stop it.
func Launch(ctx context.Context, spec launcher.Spec, p Presenter, opts Options) (*League, error) {
	if err := spec.CheckSize(); err != nil {
		return nil, err
	}
	if spec.Notify == nil {
		// What happens to the roster's programs, and the model budget.
		spec.Notify = func(line string) { p.Say(slog.LevelWarn, line, nil) }
	}
	p.Launching(spec.Size())
	started, err := launcher.Launch(ctx, spec)
	if started == nil {
		return nil, err
	}
	l := &League{League: started, spec: spec, opts: opts, p: p}
	if err != nil {
		return l, err
	}
	p.Launched(started)
	if opts.WebAddr != "" {
		if l.view, err = web.Serve(ctx, started.Control.Base(), opts.WebAddr, opts.webOut()); err != nil {
			return l, err
		}
	}
	l.waiter = newWaiter(started, spec)
	return l, nil
}

// Waiter follows who the league waits for before it starts (a new
// league's joiners, a resumed one's agents coming back); nil when nobody.
// The console shows its state while it waits.
func (l *League) Waiter() *launcher.Waiter { return l.waiter }

// Stop ends the web view's pages on the final standings if no one has
// yet, stops every process of the league and says so. It may be called
// more than once: the first call stops.
func (l *League) Stop() {
	l.stopOnce.Do(func() {
		// A manager that has exited serves no final standings to tell.
		if l.Manager != nil && l.Manager.Running() {
			l.FinishWeb(context.Background())
		}
		l.League.Stop()
		l.p.Stopped(l.League)
	})
}

// webOut is where the web view says its address.
func (o Options) webOut() io.Writer {
	if o.WebOut == nil {
		return io.Discard
	}
	return o.WebOut
}
