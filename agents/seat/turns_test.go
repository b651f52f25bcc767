package seat

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
)

func parityTurn(match string) engine.MoveContext {
	return engine.MoveContext{MatchID: match, GameType: "even_odd", MoveType: "choose_parity", Turn: 1, Round: 1,
		OpponentID: "P02", Options: []string{"even", "odd"}}
}

// moveResult is what a Move call returned.
type moveResult struct {
	move string
	err  error
}

func askAsync(q *turns, mc engine.MoveContext, deadline time.Time) <-chan moveResult {
	done := make(chan moveResult, 1)
	go func() {
		move, err := q.Move(context.Background(), mc, deadline)
		done <- moveResult{move, err}
	}()
	return done
}

func TestSubmittedMoveAnswersTheCall(t *testing.T) {
	q := newTurns()
	done := askAsync(q, parityTurn("R1M1"), time.Now().Add(time.Minute))
	next := q.next(context.Background(), 10*time.Second)
	if next.State != StateYourTurn || next.MatchID != "R1M1" || len(next.Legal) != 2 || next.Deadline == "" || next.Opponent != "P02" {
		t.Fatalf("wait_for_turn gave %+v", next)
	}
	if _, err := q.submit("R1M1", "sideways"); err == nil || !strings.Contains(err.Error(), "not a legal move") {
		t.Fatalf("an illegal move: %v", err)
	}
	if _, err := q.submit("R9M9", "even"); err == nil {
		t.Fatal("a move for a match that asks none was taken")
	}
	if _, err := q.submit("R1M1", "odd"); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got.err != nil || got.move != "odd" {
		t.Fatalf("the call got %q, %v", got.move, got.err)
	}
	if _, err := q.submit("R1M1", "even"); err == nil {
		t.Fatal("a second move for the same turn was taken")
	}
	if next := q.next(context.Background(), time.Millisecond); next.State != StateWaiting {
		t.Fatalf("after the move: %+v, want waiting", next)
	}
}

func TestUnansweredCallEndsAtItsDeadline(t *testing.T) {
	q := newTurns()
	_, err := q.Move(context.Background(), parityTurn("R1M1"), time.Now().Add(20*time.Millisecond))
	if !errors.Is(err, errNoAnswer) {
		t.Fatalf("got %v, want errNoAnswer", err)
	}
	// A move given late is kept for the referee's retry of the same turn.
	if _, err := q.submit("R1M1", "even"); err != nil {
		t.Fatal(err)
	}
	move, err := q.Move(context.Background(), parityTurn("R1M1"), time.Now().Add(time.Minute))
	if err != nil || move != "even" {
		t.Fatalf("the retry got %q, %v", move, err)
	}
}

func TestLinkRaceLegalMovesAreTheLinks(t *testing.T) {
	q := newTurns()
	mc := engine.MoveContext{MatchID: "R1M2", GameType: "link_race", MoveType: "navigate", Turn: 3,
		State: map[string]any{"current_page": "A", "target_page": "C", "links": []string{"B", "C"}}}
	askAsync(q, mc, time.Now().Add(time.Minute))
	next := q.next(context.Background(), 10*time.Second)
	if len(next.Legal) != 2 || next.Legal[1] != "C" || next.Observation["target_page"] != "C" {
		t.Fatalf("wait_for_turn gave %+v", next)
	}
}

func TestLeagueCompletedEndsTheWait(t *testing.T) {
	q := newTurns()
	waited := make(chan Turn, 1)
	go func() { waited <- q.next(context.Background(), time.Minute) }()
	q.LeagueCompleted()
	if got := <-waited; got.State != StateLeagueCompleted {
		t.Fatalf("got %+v, want league_completed", got)
	}
}

func TestMatchOverForgetsItsTurns(t *testing.T) {
	q := newTurns()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _, _ = q.Move(ctx, parityTurn("R1M1"), time.Now().Add(time.Minute)) }()
	if next := q.next(context.Background(), 10*time.Second); next.State != StateYourTurn {
		t.Fatalf("got %+v", next)
	}
	cancel()
	q.MatchOver("R1M1")
	if next := q.next(context.Background(), time.Millisecond); next.State != StateWaiting {
		t.Fatalf("after GAME_OVER: %+v, want waiting", next)
	}
}
