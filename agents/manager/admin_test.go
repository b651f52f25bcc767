package manager_test

import (
	"context"

	"github.com/leaguetui/leaguetui/league/control"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestAdminEnvelope sends a real manager admin messages that carry the
// admin token but break the envelope rules every other message to the
// manager follows: each is refused with the rule's code and changes nothing.
func TestAdminEnvelope(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "13")
	for range 2 {
		register(t, mgr.Endpoint, "player", ackingPeer(t, nil, nil).Endpoint)
	}
	register(t, mgr.Endpoint, "referee", ackingPeer(t, nil, nil).Endpoint)
	before := standingsOf(t, mgr.Endpoint)

	for _, method := range []string{"start_league", "pause_league", "resume_league", "stop_league"} {
		admin := leaguetest.With(leaguetest.Envelope("", "admin:console"), map[string]any{"auth_token": adminToken})
		delete(admin, "message_type") // routed by the method
		tests := []struct {
			name, code string
			msg        map[string]any
		}{
			{"a non-UTC timestamp", "E021", leaguetest.With(admin, map[string]any{"timestamp": "2025-01-15T10:00:00+02:00"})},
			{"no sender", "E003", leaguetest.With(admin, map[string]any{"sender": nil})},
		}
		for _, tt := range tests {
			t.Run(method+" with "+tt.name, func(t *testing.T) {
				wantLeagueError(t, leaguetest.Call(t, mgr.Endpoint, method, tt.msg), tt.code)
			})
		}
	}
	if after := standingsOf(t, mgr.Endpoint); after.State != engine.LeagueWaiting || after.Version != before.Version {
		t.Errorf("refused admin messages changed the league: %+v -> %+v", before, after)
	}
	// The same messages with a good envelope are taken.
	if err := control.New(mgr.Endpoint, adminToken).Start(context.Background()); err != nil {
		t.Errorf("start with a good envelope: %v", err)
	}
	// Stopped while the fake agents still answer, so that it has nothing
	// left to deliver.
	if err := mgr.Stop(10 * time.Second); err != nil {
		t.Error(err)
	}
}
