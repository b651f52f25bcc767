package noui

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/launcher"
)

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
		if ev.Detail != "" { // a league that played on: why it stopped
			fmt.Fprintf(p.out, "league completed: %s\n", ev.Detail)
			return true, nil
		}
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
				launcher.ResumeCommand(e.DataDir, e.FreePorts, "--no-ui")
		}
		return "interrupted while the agents started; no match was played in this run"
	}
	how := "paused"
	if !e.Drained {
		how = fmt.Sprintf("stopped at once (running matches to play again: %d)", e.Running)
	}
	return fmt.Sprintf("interrupted: league %s at %d of %d matches, state saved; resume with: %s", how, e.Done, e.Total,
		launcher.ResumeCommand(e.DataDir, e.FreePorts, "--no-ui"))
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
