package launcher

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestResumedLeagueCountsItsReferees: a league resumed without --referees
// gets back as many referees as registered before it started (read from
// its feed, over pages), not the default: referees missing on resume would
// be given matches they cannot play.
func TestResumedLeagueCountsItsReferees(t *testing.T) {
	reg := func(seq int64, id string, role engine.Role) engine.Event {
		return engine.Event{Seq: seq, Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: id, Role: role, Endpoint: id}}
	}
	pages := map[string]protocol.FeedPage{
		"0": {Events: []engine.Event{reg(1, "REF01", engine.RoleReferee), reg(2, "P01", engine.RolePlayer)}, LastSeq: 2},
		"2": {Events: []engine.Event{reg(3, "REF02", engine.RoleReferee), reg(4, "REF03", engine.RoleReferee),
			reg(5, "REF02", engine.RoleReferee), // registered again: still one referee
			{Seq: 6, Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{}},
			reg(7, "REF04", engine.RoleReferee)}, LastSeq: 7}, // after the start: not one the league started with
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, ok := pages[r.URL.Query().Get("after")]
		if !ok {
			http.Error(w, "no such page", http.StatusBadRequest)
			return
		}
		_ = json.NewEncoder(w).Encode(page)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := registeredReferees(ctx, control.New(srv.URL, ""))
	if err != nil || n != 3 {
		t.Errorf("registeredReferees = %d, %v; want 3", n, err)
	}
}
