package referee

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// BenchmarkRefereeMatch plays even/odd matches, one after the other, as
// a referee does under the league: invitations, moves and GAME_OVER over
// real HTTP to two players, the match file written, the result reported
// to the manager. The players and the manager answer with fixed bytes,
// so the allocations counted are nearly all the referee's own (and
// net/http's on both sides).
func BenchmarkRefereeMatch(b *testing.B) {
	manager := fixedPeer(b, map[string]string{"": `{"protocol":"league.v2","message_type":"MATCH_RESULT_ACK","status":"ok"}`})
	players := [2]*httptest.Server{}
	for i, id := range []string{"P01", "P02"} {
		players[i] = fixedPeer(b, map[string]string{
			"handle_game_invitation": `{"protocol":"league.v2","message_type":"GAME_JOIN_ACK","sender":"player:` + id +
				`","timestamp":"2026-11-23T18:00:00Z","conversation_id":"c","player_id":"` + id + `","arrival_timestamp":"2026-11-23T18:00:00Z","accept":true}`,
			"choose_parity": `{"protocol":"league.v2","message_type":"CHOOSE_PARITY_RESPONSE","sender":"player:` + id +
				`","timestamp":"2026-11-23T18:00:00Z","conversation_id":"c","player_id":"` + id + `","parity_choice":"even"}`,
			"": `{"status":"ok"}`,
		})
	}
	r, err := New(Options{Config: config.Default(), DataDir: b.TempDir(), ManagerURL: manager.URL, Name: "REF01"})
	if err != nil {
		b.Fatal(err)
	}
	r.SetIdentity("REF01", "tok-"+strings.Repeat("5e", 32)) // registered, as under a league
	game, _ := engine.LookupGame("even_odd")
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		start := protocol.StartMatch{Envelope: protocol.Envelope{RoundID: 1, MatchID: fmt.Sprintf("R1M%d", n)}, GameType: "even_odd",
			PlayerAID: "P01", PlayerBID: "P02", PlayerAEndpoint: players[0].URL + "/mcp", PlayerBEndpoint: players[1].URL + "/mcp",
			LeagueSeed: 7}
		file, err := r.checkStart(start)
		if err != nil {
			b.Fatal(err)
		}
		run := newMatchRun(r, start, game, file)
		run.play(context.Background())
		if state := run.match.State(); state != engine.StateFinished {
			b.Fatalf("match %s ended %s", start.MatchID, state)
		}
	}
}

// fixedPeer answers each JSON-RPC request with the result its method
// names in results ("" for any other method), framed around the request's
// integer id.
func fixedPeer(b *testing.B, results map[string]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		result := results[""]
		for method, r := range results {
			if method != "" && bytes.Contains(body, []byte(`"method":"`+method+`"`)) {
				result = r
			}
		}
		id := body[bytes.LastIndex(body, []byte(`"id":`))+len(`"id":`) : len(body)-1]
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","result":` + result + `,"id":` + string(id) + `}`))
	}))
	b.Cleanup(srv.Close)
	return srv
}
