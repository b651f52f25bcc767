package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/engine"
)

// TestFollowPrintsSuspension: a suspension on the manager's feed is a line
// of its own in the --no-ui progress, between the results around it.
func TestFollowPrintsSuspension(t *testing.T) {
	pairing := engine.Pairing{MatchID: "R1M1", Round: 1, PlayerA: "P01", PlayerB: "P02"}
	result := &engine.Result{MatchID: "R1M1", Round: 1, PlayerA: "P01", PlayerB: "P02",
		Status: engine.StatusTechnicalLoss, Winner: "P01", Offenders: []string{"P02"}}
	events := []engine.Event{
		{Seq: 1, Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Players: []string{"P01", "P02"},
			Rounds: []engine.Round{{Number: 1, Matches: []engine.Pairing{pairing}}}}},
		{Seq: 2, Kind: engine.EventMatchResult, MatchID: "R1M1", Result: result},
		{Seq: 3, Kind: engine.EventPlayerSuspended, AgentID: "P02", Detail: "P02 suspended after 1 technical losses in a row"},
		{Seq: 4, Kind: engine.EventLeagueCompleted},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/events" || r.URL.Query().Get("after") != "0" {
			http.Error(w, "one page only", http.StatusBadRequest)
			return
		}
		_ = json.NewEncoder(w).Encode(control.FeedPage{Events: events, LastSeq: 4})
	}))
	defer srv.Close()

	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := follow(ctx, control.New(srv.URL, ""), &progress{out: &out, running: map[string]bool{}}, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"league started: 2 players, 1 rounds, 1 matches",
		"[1/1] R1M1 P01 vs P02: P01 wins, technical loss for [P02]",
		"P02 suspended after 1 technical losses in a row",
		"league completed",
	}
	if got := strings.Split(strings.TrimSpace(out.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress =\n%s\nwant\n%s", out.String(), strings.Join(want, "\n"))
	}
}
