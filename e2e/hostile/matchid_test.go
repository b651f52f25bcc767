package hostile_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/process"
)

// fakeManagerKey is what the fake manager gives a referee to check its
// start_match with.
const fakeManagerKey = "mk-fake-manager-key"

// startMatch is a start_match as the manager sends it, for match.
func startMatch(match string) map[string]any {
	return leaguetest.With(leaguetest.Envelope("START_MATCH", "league_manager"), map[string]any{
		"auth_token": fakeManagerKey,
		"league_id":  leagueID, "round_id": 1, "match_id": match, "game_type": "even_odd", "referee_id": "REF01",
		"player_A_id": "P01", "player_B_id": "P02",
		"player_A_endpoint": "http://127.0.0.1:1/mcp", "player_B_endpoint": "http://127.0.0.1:2/mcp",
	})
}

// TestMatchIDTraversal: a start_match whose match_id climbs out of the
// data folder, even from the referee's own manager, is refused with a
// league error naming match_id, and the referee writes nothing, inside the
// data folder or out of it; the credentials of P01 in particular stay.
func TestMatchIDTraversal(t *testing.T) {
	t.Parallel()
	base, data := nestedDataDir(t)
	mgr := newFakeManager(t, leagueID, fakeManagerKey)
	ref := leaguetest.StartReferee(t, data, mgr.Endpoint, "REF01")
	before := takeSnapshot(t, data)
	for _, id := range []string{"../../../x", "../../credentials/" + leagueID + "/P01", "..", "R1M1/../../../x", ".R1M1", ""} {
		wantRefusal(t, leaguetest.Call(t, ref.Endpoint, "start_match", startMatch(id)), "E003", "match_id")
	}
	before.unchanged(t, data)
	nothingOutside(t, base, data)
}

// TestRegisteredLeagueIDTraversal: a manager that answers a registration
// with a league id that climbs out of the data folder is not followed:
// the agent refuses to join and writes nothing outside its data folder.
func TestRegisteredLeagueIDTraversal(t *testing.T) {
	t.Parallel()
	base, data := nestedDataDir(t)
	mgr := newFakeManager(t, "../../../x", "")
	outputs := t.TempDir()
	for _, role := range []string{"referee", "player"} {
		out := filepath.Join(outputs, role+".out")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		child, err := process.Start(ctx, leaguetest.Binary(t), process.Spec{Name: role, Register: true, OutputPath: out,
			Env:  leaguetest.ChildEnv(),
			Args: []string{role, "--port", "0", "--data", data, "--manager", mgr.Endpoint, "--name", "X1"}},
			leaguetest.ReadyTimeout)
		cancel()
		if err == nil {
			child.Kill()
			t.Errorf("a %s joined league ../../../x", role)
			continue
		}
		if stderr, _ := os.ReadFile(out); !strings.Contains(string(stderr), `named league "../../../x"`) {
			t.Errorf("the %s did not say why it refused (%v):\n%s", role, err, stderr)
		}
	}
	nothingOutside(t, base, data)
}
