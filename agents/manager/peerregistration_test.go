package manager_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// volo10Registration is volo10's player registration as its player sends
// it (testdata/volo10: no sender, no join code), its contact endpoint
// replaced by endpoint.
func volo10Registration(t *testing.T, endpoint string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "volo10", "player_register_request.json"))
	if err != nil {
		t.Fatal(err)
	}
	const sample = "http://localhost:8101/mcp"
	if !bytes.Contains(raw, []byte(sample)) || bytes.Contains(raw, []byte(`"sender"`)) {
		t.Fatalf("the captured registration lacks its endpoint %s or carries a sender:\n%s", sample, raw)
	}
	return bytes.Replace(raw, []byte(sample), []byte(endpoint), 1)
}

// TestSenderlessRegistrationTakesCodelessEntry: another implementation's
// player whose registration carries no sender (volo10's) is admitted on
// the named entry kept for it without a join code, under the id kept
// for it; what it could not prove stays refused: a senderless
// registration presenting an auth_token (whose agent only the sender
// names) and a look-alike of the kept name.
func TestSenderlessRegistrationTakesCodelessEntry(t *testing.T) {
	t.Parallel()
	mgr := leaguetest.StartManager(t, t.TempDir(), adminToken, "--reserve", "bob,Agent Alpha")
	reply := leaguetest.Post(t, mgr.Endpoint, volo10Registration(t, ackingPeer(t, nil, nil).Endpoint))
	if reply.String("status") != "ACCEPTED" || reply.String("player_id") != "P02" || reply.String("auth_token") == "" {
		t.Fatalf("volo10's registration: %s, want ACCEPTED as P02, the id kept for Agent Alpha, with a token", reply.Body)
	}
	if got := registeredPlayers(t, control.New(mgr.Endpoint, adminToken)); len(got) != 1 || got[0] != "Agent Alpha" {
		t.Errorf("the journal registered %v, want Agent Alpha alone", got)
	}

	withToken := registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": "Agent Alpha"})
	delete(withToken, "sender")
	withToken["auth_token"] = reply.String("auth_token")
	if again := leaguetest.Call(t, mgr.Endpoint, "register_player", withToken); again.String("status") == "ACCEPTED" ||
		!strings.Contains(string(again.Body), "sender") {
		t.Errorf("a senderless registration with a token: %s, want it refused for its missing sender", again.Body)
	}
	lookalike := registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": "Agent AIpha"})
	delete(lookalike, "sender")
	if refused := leaguetest.Call(t, mgr.Endpoint, "register_player", lookalike); refused.String("status") != "REJECTED" {
		t.Errorf("a senderless look-alike of the kept name: %s, want it REJECTED", refused.Body)
	}
}
