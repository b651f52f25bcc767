package player_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// remoteMoves is a MoveSource that answers from a script: "" for no
// answer (an error), and records what it was asked and told.
type remoteMoves struct {
	mu        sync.Mutex
	answers   []string
	asked     []engine.MoveContext
	deadlines []time.Time
	over      []string
	completed bool
}

func (r *remoteMoves) Move(_ context.Context, mc engine.MoveContext, deadline time.Time) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked, r.deadlines = append(r.asked, mc), append(r.deadlines, deadline)
	move := r.answers[0]
	r.answers = r.answers[1:]
	if move == "" {
		return "", errors.New("no answer")
	}
	return move, nil
}

func (r *remoteMoves) MatchOver(matchID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.over = append(r.over, matchID)
}

func (r *remoteMoves) LeagueCompleted() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.completed = true
}

// TestRemoteMovesAnswerTheCalls: a player with Options.Moves answers each
// move call with the source's move, asked once per turn (a referee that
// asks again gets the kept move); a source that gives none leaves the call
// with an error, and the next ask of that turn tries the source again.
// GAME_OVER and LEAGUE_COMPLETED reach the source.
func TestRemoteMovesAnswerTheCalls(t *testing.T) {
	source := &remoteMoves{answers: []string{"", "odd"}}
	p := runPlayer(t, player.Options{Config: config.Default(), DataDir: t.TempDir(), Name: "seat", Moves: source}, nil)
	url := p.Endpoint()
	invitation := gameMessage("GAME_INVITATION", "R1M1", map[string]any{"role_in_match": "PLAYER_A", "opponent_id": "P08"})
	replyMessage(t, leaguetest.Call(t, url, "handle_game_invitation", invitation))
	deadline := time.Now().Add(20 * time.Second).UTC().Truncate(time.Second)
	call := gameMessage("CHOOSE_PARITY_CALL", "R1M1", map[string]any{"player_id": playerID,
		"context": map[string]any{"opponent_id": "P08", "round_id": 1}, "deadline": deadline.Format("2006-01-02T15:04:05Z")})
	if reply := leaguetest.Call(t, url, "choose_parity", call); reply.Error == nil {
		t.Fatalf("no move from the source, yet the call was answered: %s", reply.Body)
	}
	for range 2 {
		if got := replyMessage(t, leaguetest.Call(t, url, "choose_parity", call))["parity_choice"]; got != "odd" {
			t.Fatalf("parity_choice %v, want the source's odd", got)
		}
	}
	over := gameMessage("GAME_OVER", "R1M1", map[string]any{"game_result": map[string]any{"status": "WIN",
		"winner_player_id": playerID, "choices": map[string]string{playerID: "odd", "P08": "even"}}})
	replyMessage(t, leaguetest.Call(t, url, "notify_match_result", over))
	replyMessage(t, leaguetest.Call(t, url, "notify_league_completed", leaguetest.Envelope("LEAGUE_COMPLETED", "league_manager")))

	source.mu.Lock()
	defer source.mu.Unlock()
	if len(source.asked) != 2 {
		t.Fatalf("the source was asked %d times, want 2 (the failed ask and its retry)", len(source.asked))
	}
	mc := source.asked[1]
	if mc.MatchID != "R1M1" || mc.OpponentID != "P08" || mc.MoveType != "choose_parity" || len(mc.Options) != 2 {
		t.Errorf("the source was asked %+v", mc)
	}
	if !source.deadlines[1].Equal(deadline) {
		t.Errorf("deadline %v, want the call's %v", source.deadlines[1], deadline)
	}
	if len(source.over) != 1 || source.over[0] != "R1M1" || !source.completed {
		t.Errorf("the source heard of matches over %v, league completed %v", source.over, source.completed)
	}
}
