package seat

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMoveThroughSeat measures what an MCP-client seat adds to a
// move on loopback: from the referee's move call reaching the seat's
// player (the MoveSource the player asks) to the move the client
// submitted, with a client that loops over wait_for_turn and submit_move
// and answers at once, over Streamable HTTP. A push player's strategy
// answers in microseconds, so the median is the seat's own cost; the
// issue's target is 2 ms. No league runs behind the seat: the session is
// bound to it as take_seat binds one.
//
//	go test -run '^$' -bench MoveThroughSeat ./agents/seat
func BenchmarkMoveThroughSeat(b *testing.B) {
	h := startHost(b)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	client := session(ctx, b, h.URL())
	s := h.seats[0]
	h.mu.Lock()
	s.session, h.bySession[client.ID()] = client.ID(), s
	h.mu.Unlock()
	go playAtOnce(ctx, client)

	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		began := time.Now()
		move, err := s.turns.Move(ctx, parityTurn(fmt.Sprintf("R%dM1", i+1)), time.Now().Add(10*time.Second))
		if err != nil || move != "even" {
			b.Fatalf("move %d: %q, %v", i+1, move, err)
		}
		took = append(took, time.Since(began))
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/float64(time.Millisecond), "ms/median-move")
}

// playAtOnce is a client's loop: wait for a turn, submit its first legal
// move, until ctx ends.
func playAtOnce(ctx context.Context, client *mcp.ClientSession) {
	for ctx.Err() == nil {
		res, err := client.CallTool(ctx, &mcp.CallToolParams{Name: "wait_for_turn", Arguments: map[string]any{"timeout_seconds": 5}})
		if err != nil || res.IsError {
			continue
		}
		raw, _ := json.Marshal(res.StructuredContent)
		var turn Turn
		if json.Unmarshal(raw, &turn) != nil || turn.State != StateYourTurn || len(turn.Legal) == 0 {
			continue
		}
		_, _ = client.CallTool(ctx, &mcp.CallToolParams{Name: "submit_move",
			Arguments: map[string]any{"match_id": turn.MatchID, "move": turn.Legal[0]}})
	}
}
