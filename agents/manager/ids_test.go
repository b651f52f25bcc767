package manager_test

import (
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestIDsFollowNames (issue 14, item 8): a player started as
// `player --name P03` is P03, whoever registered before it; a name of no
// id's form gets the first free id; a name that is another player's id is
// refused, so the standings never show one player's id beside another's
// name.
func TestIDsFollowNames(t *testing.T) {
	t.Parallel()
	mgr := leaguetest.StartManager(t, t.TempDir(), adminToken)
	url := mgr.Endpoint
	p03 := leaguetest.StartPlayer(t, t.TempDir(), url, "P03")
	if p03.ID != "P03" {
		t.Errorf("player named P03 registered as %s", p03.ID)
	}
	for _, want := range []struct{ name, id string }{{"alpha", "P01"}, {"beta", "P02"}, {"gamma", "P04"}} {
		reply := leaguetest.Call(t, url, "register_player",
			registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": want.name}))
		if got := reply.String("player_id"); got != want.id {
			t.Errorf("%s registered as %q, want %s: %s", want.name, got, want.id, reply.Body)
		}
	}
	reply := leaguetest.Call(t, url, "register_player",
		registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": "P01"}))
	if reply.String("player_id") != "" || reply.String("auth_token") != "" {
		t.Errorf("a player named P01 registered beside P01 (alpha): %s", reply.Body)
	}
	// The clash is a refused registration saying whose the name is, not
	// a missing field.
	if reply.String("status") != "REJECTED" || !strings.Contains(reply.String("reason"), `"P01" is taken by P01`) ||
		strings.Contains(string(reply.Body), "E003") {
		t.Errorf("a player named P01 beside P01: %s; want status REJECTED naming P01, not E003", reply.Body)
	}
}
