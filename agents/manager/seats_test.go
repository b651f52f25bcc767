package manager_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// registerPlayer posts a player's registration from any goroutine: it
// returns what went wrong rather than failing the test.
func registerPlayer(url string, params map[string]any) (leaguetest.Reply, error) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "register_player", "params": params, "id": 1})
	if err != nil {
		return leaguetest.Reply{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return leaguetest.Reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return leaguetest.Reply{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return leaguetest.Reply{}, err
	}
	reply := leaguetest.Reply{Status: resp.StatusCode, Body: raw}
	return reply, json.Unmarshal(raw, &reply)
}

// registeredPlayers are the display names of the players the journal
// shows registered.
func registeredPlayers(t *testing.T, ctl *control.Client) []string {
	t.Helper()
	page, err := ctl.Events(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ev := range page.Events {
		if ev.Kind == engine.EventAgentRegistered && ev.Agent.Role == engine.RolePlayer {
			names = append(names, ev.Agent.DisplayName)
		}
	}
	return names
}

// TestOpenSeatsAreExact: a league with 3 open seats beside its own two
// players, sent 50 registrations of strangers at once, takes exactly 3
// of them and refuses the 47 others saying no seat is left; its own
// players still register, and so does a stranger it took, again, with
// its token.
func TestOpenSeatsAreExact(t *testing.T) {
	t.Parallel()
	mgr := leaguetest.StartManager(t, t.TempDir(), adminToken, "--reserve", "bob,carol", "--open-seats", "3")
	const strangers, seats = 50, 3
	peers := make([]string, strangers)
	for i := range peers {
		peers[i] = ackingPeer(t, nil, nil).Endpoint
	}
	replies := make([]leaguetest.Reply, strangers)
	errs := make([]error, strangers)
	start := make(chan struct{})
	var all sync.WaitGroup
	for i := range strangers {
		all.Go(func() {
			<-start
			replies[i], errs[i] = registerPlayer(mgr.Endpoint,
				registration("player", peers[i], map[string]any{"display_name": fmt.Sprintf("stranger-%02d", i)}))
		})
	}
	close(start)
	all.Wait()
	var admitted []leaguetest.Reply
	for i, reply := range replies {
		switch {
		case errs[i] != nil:
			t.Fatalf("registration %d: %v", i, errs[i])
		case reply.String("status") == "ACCEPTED":
			admitted = append(admitted, reply)
		case reply.String("status") != "REJECTED" || !strings.Contains(reply.String("reason"), "no open seat is left"):
			t.Errorf("registration %d: %s, want ACCEPTED or REJECTED saying no open seat is left", i, reply.Body)
		}
	}
	if len(admitted) != seats {
		t.Fatalf("%d of %d concurrent strangers were admitted, want exactly the %d open seats", len(admitted), strangers, seats)
	}
	for _, own := range []string{"bob", "carol"} {
		if reply := leaguetest.Call(t, mgr.Endpoint, "register_player",
			registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": own})); reply.String("status") != "ACCEPTED" {
			t.Errorf("the league's own %s, after the seats were taken: %s", own, reply.Body)
		}
	}
	again := admitted[0]
	params := registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": "whatever"})
	params = leaguetest.With(params, map[string]any{"sender": "player:" + again.String("player_id"), "auth_token": again.String("auth_token")})
	if reply := leaguetest.Call(t, mgr.Endpoint, "register_player", params); reply.String("player_id") != again.String("player_id") {
		t.Errorf("a stranger admitted registering again with its token: %s, want %s back", reply.Body, again.String("player_id"))
	}
	if got := registeredPlayers(t, control.New(mgr.Endpoint, adminToken)); len(got) != seats+2+1 {
		t.Errorf("the journal registered %v, want the %d strangers admitted, bob, carol and the one again", got, seats)
	}
}

// TestNoOpenSeat: a league started with --open-seats 0 takes only its
// own players.
func TestNoOpenSeat(t *testing.T) {
	t.Parallel()
	mgr := leaguetest.StartManager(t, t.TempDir(), adminToken, "--reserve", "bob", "--open-seats", "0")
	reply := leaguetest.Call(t, mgr.Endpoint, "register_player",
		registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": "zed"}))
	if reply.String("status") != "REJECTED" || !strings.Contains(reply.String("reason"), "this league has no open seat") {
		t.Errorf("a stranger in a league of no open seat: %s, want REJECTED saying so", reply.Body)
	}
}

// TestStrangersTakeNoIDShapedName: a stranger may not register under a
// name of an id's form, of either role and in any case, while the
// league's own player may; a seat is left all along.
func TestStrangersTakeNoIDShapedName(t *testing.T) {
	t.Parallel()
	mgr := leaguetest.StartManager(t, t.TempDir(), adminToken, "--reserve", "P01,bob", "--open-seats", "5")
	for _, name := range []string{"P99", "p07", "REF03", "ref1234"} {
		reply := leaguetest.Call(t, mgr.Endpoint, "register_player",
			registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": name}))
		if reply.String("status") != "REJECTED" || !strings.Contains(reply.String("reason"), "has the form of an agent id") {
			t.Errorf("a stranger named %s: %s, want REJECTED: the form of an agent id", name, reply.Body)
		}
	}
	for _, want := range []struct{ name, id string }{{"P01", "P01"}, {"P100x", "P03"}} {
		reply := leaguetest.Call(t, mgr.Endpoint, "register_player",
			registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": want.name}))
		if reply.String("player_id") != want.id {
			t.Errorf("%s registered: %s, want id %s", want.name, reply.Body, want.id)
		}
	}
}

// TestExternalEntryNeedsItsJoinCode: the name of an external roster entry
// is taken only with its join code, in player_meta or beside the
// envelope; without it, or with another, it is refused saying why, and
// the name stays free for its author.
func TestExternalEntryNeedsItsJoinCode(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	const code = "join-0123456789abcdef0123456789abcdef"
	codes := filepath.Join(data, "join-codes.json")
	if err := os.WriteFile(codes, []byte(`{"carol": "`+code+`", "dave": "join-ffffffffffffffffffffffffffffffff"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	mgr := leaguetest.StartManager(t, data, adminToken, "--reserve", "bob,carol,dave", "--open-seats", "1", "--join-codes", codes)
	register := func(name string, meta, beside map[string]any) leaguetest.Reply {
		params := registration("player", ackingPeer(t, nil, nil).Endpoint, leaguetest.With(map[string]any{"display_name": name}, meta))
		return leaguetest.Call(t, mgr.Endpoint, "register_player", leaguetest.With(params, beside))
	}
	for _, refused := range []struct {
		name   string
		meta   map[string]any
		reason string
	}{
		{"carol", nil, "register with the join code its organiser gave you (player_meta.join_code)"},
		{"CAROL", nil, "register with the join code"},
		{"carol", map[string]any{"join_code": "join-guess"}, `player_meta.join_code is not the join code of "carol"`},
		{"carol", map[string]any{"join_code": "join-ffffffffffffffffffffffffffffffff"}, "is not the join code"}, // dave's
	} {
		if reply := register(refused.name, refused.meta, nil); reply.String("status") != "REJECTED" ||
			!strings.Contains(reply.String("reason"), refused.reason) {
			t.Errorf("%s with %v: %s, want REJECTED: %s", refused.name, refused.meta, reply.Body, refused.reason)
		}
	}
	if reply := register("carol", map[string]any{"join_code": code}, nil); reply.String("player_id") != "P02" {
		t.Errorf("carol with her join code: %s, want P02", reply.Body)
	}
	if reply := register("dave", nil, map[string]any{"join_code": "join-ffffffffffffffffffffffffffffffff"}); reply.String("player_id") != "P03" {
		t.Errorf("dave with his join code beside the envelope: %s, want P03", reply.Body)
	}
	if got := registeredPlayers(t, control.New(mgr.Endpoint, adminToken)); len(got) != 2 {
		t.Errorf("the journal registered %v, want carol and dave only", got)
	}
}
