package rpc_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
)

// BenchmarkMailerBroadcast is a manager's broadcast: a ROUND_COMPLETED
// posted through the Mailer to each of 8 player-like rpc.Servers over
// loopback HTTP, and delivered (Drain), as the manager tells the players a
// round is over. An op is one letter: queueing it, the hand-off to its
// recipient's goroutine, the client's call and the player's
// acknowledgement.
func BenchmarkMailerBroadcast(b *testing.B) {
	const players = 8
	var endpoints []string
	for range players {
		s := rpc.NewServer(slog.New(slog.DiscardHandler), func() string { return "player:P01" })
		s.HandleBorrowing(protocol.TypeRoundCompleted, func(_ context.Context, in protocol.Inbound) (any, error) {
			return map[string]string{"status": "ok"}, nil
		})
		peer := httptest.NewServer(s)
		defer peer.Close()
		endpoints = append(endpoints, peer.URL+"/mcp")
	}
	client := rpc.NewClient(rpc.Options{Retry: config.Default().Retry, Breaker: config.Default().Breaker})
	mailer := rpc.NewMailer(client, slog.New(slog.DiscardHandler))
	msg := &protocol.RoundCompleted{Envelope: protocol.NewEnvelope(protocol.TypeRoundCompleted, "league_manager", "conv-round-1")}
	msg.RoundID = 1
	b.ReportAllocs()
	sent := 0
	for b.Loop() {
		mailer.Post(endpoints[sent%players], msg, 5*time.Second)
		sent++
		if sent%players == 0 {
			mailer.Drain(context.Background())
		}
	}
	mailer.Drain(context.Background())
}
