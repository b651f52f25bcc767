package player_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// newPlayer makes a player of this process that registers with managerURL.
func newPlayer(t *testing.T, managerURL string, cfg config.Config) *player.Player {
	t.Helper()
	p, err := player.New(player.Options{Config: cfg, DataDir: t.TempDir(), Port: 0, ManagerURL: managerURL,
		Name: "tester", Strategy: "random", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	p.Stdout = io.Discard
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.Shutdown(ctx)
	})
	return p
}

// TestPlayerRegistersWithAWrappedManager: a manager that reads the league
// message only from params.message answers the flat registration -32000
// "Missing required fields" (HTTP 500); our player sends it again wrapped,
// and is registered.
func TestPlayerRegistersWithAWrappedManager(t *testing.T) {
	var mu sync.Mutex
	var methods []string
	manager := leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		mu.Lock()
		methods = append(methods, req.Method)
		mu.Unlock()
		msg, wrapped := req.Params["message"].(map[string]any)
		if !wrapped || msg["message_type"] != "LEAGUE_REGISTER_REQUEST" {
			return http.StatusInternalServerError, leaguetest.ErrorReply(req.ID, -32000, "Missing required fields: message")
		}
		return http.StatusOK, leaguetest.ResultReply(req.ID, map[string]any{"protocol": "league.v2",
			"message_type": "LEAGUE_REGISTER_RESPONSE", "sender": "league_manager", "status": "ACCEPTED",
			"player_id": "P03", "auth_token": "tok-p03", "league_id": "league_wrapped"})
	})
	p := newPlayer(t, manager.Endpoint, config.Default())
	if err := p.Start(t.Context()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if id, _ := p.Identity(); id != "P03" {
		t.Errorf("registered as %q, want P03", id)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(methods) != 2 || methods[0] != "register_player" || methods[1] != "handle_message" {
		t.Errorf("methods sent %v, want register_player, then handle_message", methods)
	}
}

// TestPlayerRegistrationGivesUpSayingWhy: a manager that keeps failing is
// asked again, waiting longer each time, until the registration's time is
// up; the error says after how many attempts and what the manager said.
func TestPlayerRegistrationGivesUpSayingWhy(t *testing.T) {
	var mu sync.Mutex
	var arrivals []time.Time
	manager := leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
		return http.StatusOK, leaguetest.ErrorReply(req.ID, -32603, "database is locked")
	})
	cfg := config.Default()
	cfg.Timeouts.RegisterPlayer = time.Second // the player tries for 3 x this
	err := newPlayer(t, manager.Endpoint, cfg).Start(t.Context())
	if err == nil || !strings.Contains(err.Error(), "gave up registering") || !strings.Contains(err.Error(), "database is locked") ||
		!strings.Contains(err.Error(), "attempts") {
		t.Fatalf("Start: %v; want it to say it gave up, after how many attempts, and the manager's answer", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(arrivals) < 3 {
		t.Fatalf("%d attempts, want several", len(arrivals))
	}
	first, last := arrivals[1].Sub(arrivals[0]), arrivals[len(arrivals)-1].Sub(arrivals[len(arrivals)-2])
	if last <= first {
		t.Errorf("waits between attempts: first %s, last %s; want them to grow", first, last)
	}
}
