package hostile_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// fakeManager is a manager played by the test: it admits whoever
// registers with the league id and manager key it is told to give, and
// acknowledges everything else. It lets a test talk to a real referee or
// player as its manager would.
type fakeManager struct {
	*leaguetest.Peer
	mu       sync.Mutex
	leagueID string
	key      string // the manager_key it issues; "" issues none
}

func newFakeManager(t *testing.T, leagueID, key string) *fakeManager {
	f := &fakeManager{leagueID: leagueID, key: key}
	f.Peer = leaguetest.NewPeer(t, func(r leaguetest.PeerRequest) (int, []byte) {
		f.mu.Lock()
		defer f.mu.Unlock()
		result := map[string]any{"protocol": "league.v2", "sender": "league_manager", "status": "ok"}
		switch r.Method {
		case "register_referee", "register_player":
			result["status"], result["league_id"], result["auth_token"] = "ACCEPTED", f.leagueID, "tok-fake"
			if r.Method == "register_referee" {
				result["referee_id"] = "REF01"
			} else {
				result["player_id"] = "P01"
			}
			if f.key != "" {
				result["manager_key"] = f.key
			}
		}
		return http.StatusOK, leaguetest.ResultReply(r.ID, result)
	})
	return f
}
