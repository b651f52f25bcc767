package manager_test

import (
	"context"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// registerNamed registers a player under name from a fresh endpoint.
func registerNamed(t *testing.T, url, name string) leaguetest.Reply {
	t.Helper()
	return leaguetest.Call(t, url, "register_player",
		registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": name}))
}

// wantNameRefused requires a refused registration whose reason says want.
func wantNameRefused(t *testing.T, reply leaguetest.Reply, name, want string) {
	t.Helper()
	if reply.String("status") != "REJECTED" || reply.String("auth_token") != "" || !strings.Contains(reply.String("reason"), want) {
		t.Errorf("a player named %q: %s, want REJECTED saying %q", name, reply.Body, want)
	}
}

// TestLookAlikeNamesRefused: in a league that knows its own players, a
// stranger's name is held to the id-shape and kept-name rules as it
// looks, not only as it is spelt: "Р01" with a Cyrillic Р is refused as
// id-shaped like P01, "cаrol" with a Cyrillic а beside the kept "carol",
// "c\u0430rol" registering again under the id's look-alike too; names of
// other scripts still register, and a name mixing scripts that imitates
// no one is shown escaped in the standings.
func TestLookAlikeNamesRefused(t *testing.T) {
	t.Parallel()
	mgr := leaguetest.StartManager(t, t.TempDir(), adminToken, "--reserve", "P01,carol", "--open-seats", "5")
	url := mgr.Endpoint
	for _, tt := range []struct{ name, reason string }{
		{"P07", "has the form of an agent id"},                // as before
		{"\u042001", "has the form of an agent id, P01"},      // Cyrillic Р
		{"\u0440\u03bf1", "has the form of an agent id, P01"}, // Cyrillic р, Greek ο
		{"PO1", "has the form of an agent id, P01"},           // the letter O
		{"R\u0415F02", "has the form of an agent id, REF02"},  // Cyrillic Е
		{"c\u0430rol", `looks like "carol", a name kept for this league's own players`},
		{"CAR0L", `looks like "carol"`},
		{"ｃａｒｏｌ", `looks like "carol"`}, // fullwidth
	} {
		wantNameRefused(t, registerNamed(t, url, tt.name), tt.name, tt.reason)
	}
	for _, name := range []string{"Иван", "たろう", "김민준", "Zoë"} {
		if reply := registerNamed(t, url, name); reply.String("status") != "ACCEPTED" {
			t.Errorf("a player named %q: %s, want ACCEPTED", name, reply.Body)
		}
	}
	paul := registerNamed(t, url, "P\u0430ul") // mixes scripts, imitates no one here
	if paul.String("status") != "ACCEPTED" {
		t.Fatalf("a player named P\u0430ul: %s, want ACCEPTED", paul.Body)
	}
	// A stranger it took may register again, but not under a look-alike.
	again := registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": "\u042001"})
	again = leaguetest.With(again, map[string]any{"sender": "player:" + paul.String("player_id"), "auth_token": paul.String("auth_token")})
	wantNameRefused(t, leaguetest.Call(t, url, "register_player", again), "\u042001 (again)", "has the form of an agent id, P01")
	for _, own := range []string{"carol", "P01"} {
		if reply := registerNamed(t, url, own); reply.String("status") != "ACCEPTED" {
			t.Errorf("the league's own %s: %s, want ACCEPTED", own, reply.Body)
		}
	}
	doc, err := control.New(url, adminToken).Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]string{}
	for _, row := range doc.Standings {
		shown[row.PlayerID] = row.DisplayName
	}
	if got := shown[paul.String("player_id")]; got != `P\u0430ul` {
		t.Errorf("P\u0430ul is shown in the standings as %q, want its Cyrillic а escaped: %q", got, `P\u0430ul`)
	}
	if got := registeredPlayers(t, control.New(url, adminToken)); len(got) != 7 {
		t.Errorf("the journal registered %q, want the 4 of other scripts, P\u0430ul, carol and P01", got)
	}
}

// TestLookAlikeOfRegisteredName: a manager started by hand (no own
// players) takes any free name, but not one that looks like a name or an
// id already registered, nor one that reads as an id written with
// look-alikes; an id's form in plain letters is still taken.
func TestLookAlikeOfRegisteredName(t *testing.T) {
	t.Parallel()
	mgr := leaguetest.StartManager(t, t.TempDir(), adminToken)
	url := mgr.Endpoint
	if reply := registerNamed(t, url, "carol"); reply.String("player_id") != "P01" {
		t.Fatalf("carol: %s, want P01", reply.Body)
	}
	wantNameRefused(t, registerNamed(t, url, "c\u0430rol"), "c\u0430rol", `looks like "carol", the name of P01`)
	wantNameRefused(t, registerNamed(t, url, "Car0l"), "Car0l", `looks like "carol", the name of P01`)
	wantNameRefused(t, registerNamed(t, url, "\u042001"), "\u042001", `looks like "P01", the id of P01`)
	wantNameRefused(t, registerNamed(t, url, "\u042005"), "\u042005", "has the form of an agent id, P05, written with look-alike characters")
	if reply := registerNamed(t, url, "P03"); reply.String("player_id") != "P03" {
		t.Errorf("P03 by hand: %s, want P03", reply.Body)
	}
	wantNameRefused(t, registerNamed(t, url, "PO3"), "PO3", `looks like "P03", the name of P03`)
	if reply := registerNamed(t, url, "Иван"); reply.String("status") != "ACCEPTED" {
		t.Errorf("Иван: %s, want ACCEPTED", reply.Body)
	}
}
