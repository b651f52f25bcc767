package seat

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// turns is one seat's moves in waiting: its player asks (Move, on the
// referee's call), the seat's client reads them (next) and answers
// (submit). It is the player's MoveSource.
type turns struct {
	mu      sync.Mutex
	open    map[string]*turn // turn key (match id and turn) -> the turn asked and not yet handed to the player
	changed chan struct{}    // closed, and replaced, when a turn opens or the league ends
	over    bool             // the manager ended the league
	closed  bool             // the host is stopping: no wait waits
}

var _ player.MoveSource = (*turns)(nil)

// turn is one move the seat's player was asked for.
type turn struct {
	view  Turn
	key   string
	given chan struct{} // closed when the client submits
	move  string        // the client's move, once given is closed
}

func newTurns() *turns {
	return &turns{open: map[string]*turn{}, changed: make(chan struct{})}
}

// errNoAnswer is a move call the client did not answer in time.
var errNoAnswer = errors.New("the seat's client gave no move before the deadline")

// Move opens mc's turn for the client and waits for its move until the
// deadline. A referee that asks again for the same turn (a retry) finds
// the same turn, and the move the client gave in the meantime if any.
func (q *turns) Move(ctx context.Context, mc engine.MoveContext, deadline time.Time) (string, error) {
	t := q.ask(mc, deadline)
	wait := time.NewTimer(time.Until(deadline))
	defer wait.Stop()
	select {
	case <-t.given:
		q.handed(t)
		return t.move, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-wait.C:
		return "", errNoAnswer
	}
}

// ask is mc's turn, opened now or by an earlier ask of the same turn, its
// deadline the latest ask's; a new turn wakes the client's wait.
func (q *turns) ask(mc engine.MoveContext, deadline time.Time) *turn {
	key := fmt.Sprintf("%s#%d", mc.MatchID, mc.Turn)
	q.mu.Lock()
	defer q.mu.Unlock()
	t, ok := q.open[key]
	if !ok {
		t = &turn{key: key, view: turnView(mc), given: make(chan struct{})}
		q.open[key] = t
		q.wake()
	}
	t.view.Deadline = protocol.FormatTime(deadline)
	t.view.deadline = deadline
	return t
}

// turnView is what the client is shown of mc.
func turnView(mc engine.MoveContext) Turn {
	legal := mc.Options
	if len(legal) == 0 {
		legal = engine.StringsOf(mc.State["links"]) // the link race lists its legal moves as the page's links
	}
	return Turn{State: StateYourTurn, MatchID: mc.MatchID, GameType: mc.GameType, MoveType: mc.MoveType,
		Round: mc.Round, Turn: mc.Turn, Opponent: mc.OpponentID, Legal: legal, Observation: mc.State}
}

// handed forgets a turn whose move the player now has (it keeps it).
func (q *turns) handed(t *turn) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.open[t.key] == t {
		delete(q.open, t.key)
	}
}

// MatchOver forgets the match's turns: none will be asked again.
func (q *turns) MatchOver(matchID string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for key, t := range q.open {
		if t.view.MatchID == matchID {
			delete(q.open, key)
		}
	}
}

// LeagueCompleted ends every wait: nothing is left to play.
func (q *turns) LeagueCompleted() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.over = true
	q.wake()
}

// close ends every wait for good: the host is stopping. A wait answers
// league_completed if the league said so, else waiting (the client comes
// back with its code to a host started again).
func (q *turns) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.wake()
}

// wake tells every waiting client that something changed. Call with q.mu
// held.
func (q *turns) wake() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// next is the earliest turn waiting for the client's move, waiting up to
// wait for one; its State says "waiting" when none came and
// "league_completed" when none will.
func (q *turns) next(ctx context.Context, wait time.Duration) Turn {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		view, changed, closed := q.pending()
		if view.State != StateWaiting || closed {
			return view
		}
		select {
		case <-changed:
		case <-timer.C:
			return view
		case <-ctx.Done():
			return view
		}
	}
}

// pending is the earliest unanswered turn now, or the state with none,
// and the channel that says when that changes.
func (q *turns) pending() (_ Turn, changed <-chan struct{}, closed bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var waiting []*turn
	for _, t := range q.open {
		if t.move == "" {
			waiting = append(waiting, t)
		}
	}
	if len(waiting) > 0 {
		first := slices.MinFunc(waiting, func(a, b *turn) int {
			return cmp.Or(a.view.deadline.Compare(b.view.deadline), cmp.Compare(a.key, b.key))
		})
		view := first.view
		view.SecondsLeft = max(0, time.Until(view.deadline).Round(100*time.Millisecond).Seconds())
		return view, q.changed, q.closed
	}
	if q.over {
		return Turn{State: StateLeagueCompleted}, q.changed, q.closed
	}
	return Turn{State: StateWaiting}, q.changed, q.closed
}

// submit gives move to the match's open turn, refusing it (the error says
// why, for the client to read) when no move is asked in that match or the
// move is not one of the legal ones.
func (q *turns) submit(matchID, move string) (Turn, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, t := range q.open {
		if t.view.MatchID != matchID || t.move != "" {
			continue
		}
		if len(t.view.Legal) > 0 && !slices.Contains(t.view.Legal, move) {
			return t.view, fmt.Errorf("%q is not a legal move in match %s: submit one of %v", move, matchID, t.view.Legal)
		}
		if move == "" {
			return t.view, fmt.Errorf("the move is empty")
		}
		t.move = move
		close(t.given)
		return t.view, nil
	}
	return Turn{}, fmt.Errorf("no move is asked of this seat in match %s now (already given, match over, or not this seat's): call wait_for_turn", matchID)
}
