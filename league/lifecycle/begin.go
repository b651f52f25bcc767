package lifecycle

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// How is how a league begins.
type How int

const (
	New             How = iota // a new league, started
	Resuming                   // the data folder's league, carried on (resumed when paused)
	CompletedBefore            // the data folder's league, completed before this run: nothing is left to play
	StoppedBefore              // the data folder's league, stopped by its admin: it cannot go on
)

// Begun is how a league began.
type Begun struct {
	How  How
	Seed int64 // the seed it plays with: a new league's, or the data folder's league's
	// Resumed is the data folder's league as its journal left it; nil
	// for a new league.
	Resumed *protocol.StandingsFile
	// OpenReferees: its manager admits any referee, without the key.
	OpenReferees bool
}

// Plays says the league has matches to play in this run.
func (b Begun) Plays() bool { return b.How == New || b.How == Resuming }

// newWaiter is who a league waits for before it starts: a new league's
// roster agents and open seats, or a resumed league's agents to come back
// (each to register again before a match is handed out, so that none
// loses one for being late); nil when nobody.
func newWaiter(l *launcher.League, spec launcher.Spec) *launcher.Waiter {
	if l.Resumed != nil {
		return l.NewReturnWaiter(spec)
	}
	return l.NewWaiter(spec)
}

// Begin is a headless league's beginning (--no-ui): it waits for who the
// league waits for, then starts a new league, resumes a paused one, and
// watches the model budget of one that plays, until ctx ends. A league
// completed before this run begins with nothing to play; one stopped by
// its admin is an error.
func (l *League) Begin(ctx context.Context) (Begun, error) {
	if _, err := l.awaitJoining(ctx); err != nil {
		return Begun{}, err
	}
	b := l.how(ctx)
	l.p.Beginning(b)
	var err error
	switch {
	case b.How == StoppedBefore:
		return b, fmt.Errorf("%s: it was stopped and cannot go on; for a new league, pass another --data folder",
			launcher.DescribeLeague(l.spec.DataDir, *b.Resumed))
	case b.How == New:
		err = l.Control.Start(ctx)
	case b.How == Resuming && b.Resumed.State == engine.LeaguePaused:
		err = l.Control.Resume(ctx)
	}
	if err == nil && b.Plays() {
		go l.WatchLeagueBudget(ctx, l.spec)
	}
	return b, err
}

// how is how the league begins, from the journal's state of it.
func (l *League) how(ctx context.Context) Begun {
	b := Begun{Resumed: l.Resumed, Seed: l.Seed}
	if health, err := l.Control.Health(ctx); err == nil && health.OpenReferees {
		b.OpenReferees = true
	}
	switch {
	case l.Resumed == nil:
		b.How = New
	case l.Resumed.State == engine.LeagueCompleted:
		b.How = CompletedBefore
	case l.Resumed.State == engine.LeagueStopped:
		b.How = StoppedBefore
	default:
		b.How = Resuming
	}
	return b
}

// Background carries on a league the console shows, until ctx ends: it
// waits for the league's joiners and then starts a new league (unless the
// console's s did first); it watches the model budget; and it adds the
// league to its season once it has completed. The console's keys do the
// rest: start a league that waits for nobody, resume a resumed one, pause
// and stop. What fails is told to the presenter; the console stays open.
func (l *League) Background(ctx context.Context) {
	go l.startWhenJoined(ctx)
	go l.WatchLeagueBudget(ctx, l.spec) // the presenter says why a league whose budget is spent stops
	if l.spec.Config.Season != "" || l.opts.CSVDir != "" {
		go l.completeWhenDone(ctx)
	}
}

// startWhenJoined is the console's wait for joiners: a new league starts
// once they are there or the join window has passed; a resumed one waits
// for the console's key all the same.
func (l *League) startWhenJoined(ctx context.Context) {
	if l.waiter == nil {
		return
	}
	end, err := l.awaitJoining(ctx)
	if err != nil {
		if ctx.Err() == nil {
			l.p.Say(slog.LevelError, "the league waits for no one more", err) // a roster program that stays down
		}
		return
	}
	if end.Started || l.Resumed != nil {
		return
	}
	if err := l.Control.Start(ctx); err != nil && ctx.Err() == nil {
		l.p.Say(slog.LevelError, "the league could not be started", err)
	}
}

// awaitJoining waits until everyone the league waits for has registered,
// the join window has passed or the league has been started anyway,
// telling the presenter who joins; at once when it waits for nobody.
func (l *League) awaitJoining(ctx context.Context) (launcher.Joining, error) {
	w := l.waiter
	if w == nil {
		return launcher.Joining{}, nil
	}
	l.p.Joining(JoinWaiting, w.State())
	end, err := w.Await(ctx, func(j launcher.Joining) { l.p.Joining(JoinJoined, j) })
	if err != nil {
		return end, err
	}
	l.p.Joining(JoinEnded, end)
	return end, nil
}
