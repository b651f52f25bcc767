package manager_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/throttle"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestWrongJoinCodesLockOutTheirSource: a client that sends wrong join
// codes is answered as usual for the first few (throttle.DefaultFree),
// then refused for a while whatever its code, its right code included;
// a player registering again as itself with its token is not
// held up by its address's lock-out.
func TestWrongJoinCodesLockOutTheirSource(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	const code = "join-0123456789abcdef0123456789abcdef"
	codes := filepath.Join(data, "join-codes.json")
	if err := os.WriteFile(codes, []byte(`{"carol": "`+code+`", "dave": "join-ffffffffffffffffffffffffffffffff"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	mgr := leaguetest.StartManager(t, data, adminToken, "--reserve", "carol,dave", "--join-codes", codes)
	register := func(name, joinCode string) leaguetest.Reply {
		return leaguetest.Call(t, mgr.Endpoint, "register_player",
			registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": name, "join_code": joinCode}))
	}
	dave := register("dave", "join-ffffffffffffffffffffffffffffffff")
	if dave.String("status") != "ACCEPTED" {
		t.Fatalf("dave with his code: %s", dave.Body)
	}
	for i := range throttle.DefaultFree {
		if reply := register("carol", "join-guess"); !strings.Contains(reply.String("reason"), "is not the join code") {
			t.Fatalf("wrong code %d of the %d answered as such: %s", i+1, throttle.DefaultFree, reply.Body)
		}
	}
	// Each wrong code beyond, compared or not, doubles the lock-out: past
	// ten of them it is the longest, whatever the time between them.
	locked := 0
	for range 10 {
		reply := register("carol", "join-guess")
		switch reason := reply.String("reason"); {
		case strings.Contains(reason, "too many wrong join codes from your address"):
			locked++
		case !strings.Contains(reason, "is not the join code"):
			t.Fatalf("a wrong code past the free ones: %s", reply.Body)
		}
	}
	if locked == 0 {
		t.Error("ten wrong codes past the free ones, and none refused for too many wrong codes")
	}
	if reply := register("carol", code); reply.String("status") != "REJECTED" ||
		!strings.Contains(reply.String("reason"), "too many wrong join codes from your address") {
		t.Errorf("the right code from a locked-out address: %s, want REJECTED for too many wrong join codes", reply.Body)
	}
	again := registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": "dave",
		"join_code": "join-ffffffffffffffffffffffffffffffff"})
	again = leaguetest.With(again, map[string]any{"sender": "player:" + dave.String("player_id"), "auth_token": dave.String("auth_token")})
	if reply := leaguetest.Call(t, mgr.Endpoint, "register_player", again); reply.String("player_id") != dave.String("player_id") {
		t.Errorf("dave registering again with his token from the locked-out address: %s, want %s back", reply.Body, dave.String("player_id"))
	}
}
