package rpc_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// BenchmarkBroadcastExchange is one 10 KB round broadcast, the size of a
// 64-player standings update, posted through an agent's Poster to an
// rpc.Server over loopback HTTP, where it is acknowledged as agents
// acknowledge broadcasts: the body is only borrowed.
func BenchmarkBroadcastExchange(b *testing.B) {
	s := rpc.NewServer(slog.New(slog.DiscardHandler), func() string { return "player:P01" })
	s.HandleBorrowing(protocol.TypeRoundAnnouncement, func(_ context.Context, in protocol.Inbound) (any, error) {
		return &protocol.Ack{Envelope: protocol.NewEnvelope("ROUND_ANNOUNCEMENT_ACK", "player:P01", in.ConversationID), Status: "ok"}, nil
	})
	peer := httptest.NewServer(s)
	defer peer.Close()
	msg := fmt.Appendf(nil, `{"protocol":"league.v2","message_type":"ROUND_ANNOUNCEMENT","sender":"league_manager",`+
		`"timestamp":"2025-01-15T10:00:00Z","conversation_id":"conv-round-1","round_id":1,"padding":%q}`, strings.Repeat("x", 10<<10))
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notify_round","params":%s,"id":1}`, msg)
	poster := rpc.NewPoster(0)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		status, _, err := poster.Post(context.Background(), peer.URL+"/mcp", body)
		if err != nil || status != 200 {
			b.Fatal(status, err)
		}
	}
}
