package manager_test

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/ticket"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestReRegistration runs a real manager whose league has started and
// tries every way of registering again: an agent presenting its own id and
// token gets its id back with a fresh token, wherever it now listens, and
// so does one presenting the token it had before while it never used the
// fresh one; anything else (a wrong token, another agent's, a token of
// before once the new one was used, a referee's id, another agent's
// endpoint) is refused and changes nothing.
func TestReRegistration(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "5", "--retry-delay", "50ms")
	url := mgr.Endpoint
	ctl := control.New(url, adminToken)

	refPeer := ackingPeer(t, nil, nil)
	ref1 := register(t, url, "referee", refPeer.Endpoint)
	p1Peer := ackingPeer(t, nil, nil)
	p1 := register(t, url, "player", p1Peer.Endpoint)
	p2 := register(t, url, "player", ackingPeer(t, nil, nil).Endpoint)

	t.Run("a replayed registration before the start", func(t *testing.T) {
		// The same request again (same conversation, same endpoint), as a
		// referee whose first reply was lost sends it, or as an attacker
		// who saw it: refused, and the token first issued stays valid.
		endpoint := ackingPeer(t, nil, nil).Endpoint
		req := registration("referee", endpoint, nil)
		first := leaguetest.Call(t, url, "register_referee", req)
		again := leaguetest.Call(t, url, "register_referee", req)
		wantRejected(t, again, "referee")
		id := first.String("referee_id")
		sender, token := "referee:"+id, first.String("auth_token")
		if reply := query(t, url, sender, token, "GET_STATUS"); reply.Result["success"] != true {
			t.Errorf("the replay invalidated %s's token: %s", id, reply.Body)
		}
		// Another request from that endpoint without the token is not a
		// retry: whoever sends it does not get the referee's id.
		other := registration("referee", endpoint, nil)
		wantRejected(t, leaguetest.Call(t, url, "register_referee", other), "referee")
	})

	if err := ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}

	stale := p1.token // P01's token before it registers again
	t.Run("own id and token from a new endpoint", func(t *testing.T) {
		endpoint := ackingPeer(t, nil, nil).Endpoint
		req := leaguetest.With(registration("player", endpoint, nil), map[string]any{"sender": p1.sender, "auth_token": p1.token})
		reply := leaguetest.Call(t, url, "register_player", req)
		fresh := reply.String("auth_token")
		if reply.String("status") != "ACCEPTED" || reply.String("player_id") != p1.id || fresh == "" || fresh == p1.token {
			t.Fatalf("reply %s, want ACCEPTED as %s with a fresh token", reply.Body, p1.id)
		}
		// Its match tickets do not change with its token: a match under way
		// goes on with the tickets its referee already holds.
		key, league := reply.String("match_ticket_key"), config.Default().LeagueID
		if key == "" || ticket.Mint(key, league, "R1M1", ref1.id) != leaguetest.MatchTicket(t, dir, league, p1.id, "R1M1", ref1.id) {
			t.Errorf("registered again, %s got ticket key %q, which does not make the tickets its manager gives", p1.id, key)
		}
		wantLeagueError(t, query(t, url, p1.sender, p1.token, "GET_STATUS"), "E012")
		p1.token = fresh
		if reply := query(t, url, p1.sender, p1.token, "GET_STATUS"); reply.Result["success"] != true {
			t.Errorf("the fresh token is refused: %s", reply.Body)
		}
		registry := registryOf(t, url, p1)
		if len(registry) != 2 || registry[p1.id] != endpoint {
			t.Errorf("registry %v, want 2 players with %s at %s", registry, p1.id, endpoint)
		}
		p1Peer.Endpoint = endpoint
	})

	tests := []struct {
		name, method, sender, token string
		endpoint                    string // "" is a new endpoint
	}{
		{name: "P01 with a made-up token", method: "register_player", sender: p1.sender, token: "tok-" + strings.Repeat("ab", 32)},
		{name: "P01 with P02's token", method: "register_player", sender: p1.sender, token: p2.token},
		{name: "P01 with its token of before", method: "register_player", sender: p1.sender, token: stale},
		{name: "a player sender with REF01's id and token", method: "register_player", sender: "player:" + ref1.id, token: ref1.token},
		{name: "a referee sender registering as a player", method: "register_player", sender: ref1.sender, token: ref1.token},
		{name: "no token from P01's endpoint", method: "register_player", sender: "player:alpha", endpoint: p1Peer.Endpoint},
		{name: "a referee without token from REF01's endpoint", method: "register_referee", sender: "referee:alpha", endpoint: refPeer.Endpoint},
		{name: "REF01 with P01's token", method: "register_referee", sender: ref1.sender, token: p1.token, endpoint: refPeer.Endpoint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			endpoint := tt.endpoint
			if endpoint == "" {
				endpoint = ackingPeer(t, nil, nil).Endpoint
			}
			role := strings.TrimPrefix(tt.method, "register_")
			before := registryOf(t, url, p2)
			registered := registrations(t, ctl)
			req := leaguetest.With(registration(role, endpoint, nil), map[string]any{"sender": tt.sender, "auth_token": tt.token})
			if tt.token == "" {
				delete(req, "auth_token")
			}
			wantRejected(t, leaguetest.Call(t, url, tt.method, req), role)
			if after := registryOf(t, url, p2); !maps.Equal(before, after) {
				t.Errorf("registry %v became %v", before, after)
			}
			if n := registrations(t, ctl); n != registered {
				t.Errorf("%d agent_registered events, then %d", registered, n)
			}
			for _, a := range []agent{p1, p2, ref1} {
				if reply := query(t, url, a.sender, a.token, "GET_STATUS"); reply.Result["success"] != true {
					t.Errorf("%s's token stopped working: %s", a.id, reply.Body)
				}
			}
		})
	}

	// Restarted agents get free ports, and P02 may get the one P01 had:
	// with its own token it registers from there, and P01 keeps its id
	// and token.
	var unsaved string // the token that registration gave P02
	t.Run("P02's own token from a port P01 had", func(t *testing.T) {
		meta := map[string]any{"display_name": "P02 restarted"}
		req := leaguetest.With(registration("player", p1Peer.Endpoint, meta), map[string]any{"sender": p2.sender, "auth_token": p2.token})
		reply := leaguetest.Call(t, url, "register_player", req)
		if reply.String("status") != "ACCEPTED" || reply.String("player_id") != p2.id {
			t.Fatalf("reply %s, want ACCEPTED as %s", reply.Body, p2.id)
		}
		unsaved = reply.String("auth_token")
		if registry := registryOf(t, url, p1); registry[p2.id] != p1Peer.Endpoint {
			t.Errorf("registry %v, want %s at %s", registry, p2.id, p1Peer.Endpoint)
		}
		if reply := query(t, url, p1.sender, p1.token, "GET_STATUS"); reply.Result["success"] != true {
			t.Errorf("%s's token stopped working: %s", p1.id, reply.Body)
		}
	})

	// P02 never used (so, perhaps, never saved) the token it was just
	// given: it may still register again with the one it presented then,
	// as an agent killed before it saved its new token does.
	t.Run("P02's token of before, the new one never used", func(t *testing.T) {
		req := leaguetest.With(registration("player", ackingPeer(t, nil, nil).Endpoint, nil),
			map[string]any{"sender": p2.sender, "auth_token": p2.token})
		reply := leaguetest.Call(t, url, "register_player", req)
		if reply.String("status") != "ACCEPTED" || reply.String("player_id") != p2.id {
			t.Fatalf("reply %s, want ACCEPTED as %s", reply.Body, p2.id)
		}
		// The token it never used opens nothing now; the one just issued does.
		again := leaguetest.With(registration("player", ackingPeer(t, nil, nil).Endpoint, nil),
			map[string]any{"sender": p2.sender, "auth_token": unsaved})
		wantRejected(t, leaguetest.Call(t, url, "register_player", again), "player")
		p2.token = reply.String("auth_token")
		if reply := query(t, url, p2.sender, p2.token, "GET_STATUS"); reply.Result["success"] != true {
			t.Errorf("%s's new token is refused: %s", p2.id, reply.Body)
		}
	})

	// A resumed league restarts its referees too, and REF01 may get the
	// port P02 has in the journal: with its own token it registers from
	// there, and P02 keeps its id and token.
	t.Run("REF01's own token from a port P02 had", func(t *testing.T) {
		endpoint := registryOf(t, url, p2)[p2.id]
		req := leaguetest.With(registration("referee", endpoint, nil), map[string]any{"sender": ref1.sender, "auth_token": ref1.token})
		reply := leaguetest.Call(t, url, "register_referee", req)
		if reply.String("status") != "ACCEPTED" || reply.String("referee_id") != ref1.id {
			t.Fatalf("reply %s, want ACCEPTED as %s", reply.Body, ref1.id)
		}
		ref1.token = reply.String("auth_token")
		if registry := registryOf(t, url, p2); registry[p2.id] != endpoint {
			t.Errorf("registry %v, want %s still at %s", registry, p2.id, endpoint)
		}
		for _, a := range []agent{p2, ref1} {
			if reply := query(t, url, a.sender, a.token, "GET_STATUS"); reply.Result["success"] != true {
				t.Errorf("%s's token stopped working: %s", a.id, reply.Body)
			}
		}
	})
}

// wantRejected requires a REJECTED registration with a reason and neither
// id nor token.
func wantRejected(t *testing.T, reply leaguetest.Reply, role string) {
	t.Helper()
	if reply.String("status") != "REJECTED" || reply.String(role+"_id") != "" || reply.String("auth_token") != "" ||
		reply.String("reason") == "" {
		t.Errorf("reply %s, want REJECTED with a reason, without id or token", reply.Body)
	}
}

// registryOf is every player's endpoint, as asker sees it.
func registryOf(t *testing.T, managerURL string, asker agent) map[string]string {
	t.Helper()
	return players(t, managerURL, asker.id, asker.token)
}

// registrations counts the agent_registered events of the feed.
func registrations(t *testing.T, ctl *control.Client) int {
	t.Helper()
	page, err := ctl.Events(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range page.Events {
		if ev.Kind == engine.EventAgentRegistered {
			n++
		}
	}
	return n
}

// TestRejoinToken: a newcomer that saved a secret of its own before it
// registered (player_meta.rejoin_token) and died before it saved what it
// was issued registers again with that secret, under the name it
// registered with, and gets its id back, even after the league started;
// until then, and never for anyone presenting anything else, or a secret
// too short to be one. Once it used the token it was issued, its secret
// opens nothing.
func TestRejoinToken(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "5", "--retry-delay", "50ms")
	url := mgr.Endpoint
	secret := "rejoin-" + strings.Repeat("5e", 32)
	newcomer := func(name, rejoin string) leaguetest.Reply {
		req := registration("player", ackingPeer(t, nil, nil).Endpoint, map[string]any{"display_name": name, "rejoin_token": rejoin})
		return leaguetest.Call(t, url, "register_player", leaguetest.With(req, map[string]any{"sender": "player:" + name, "auth_token": rejoin}))
	}
	first := newcomer("alpha", secret) // given P01: not its name
	id := first.String("player_id")
	if first.String("status") != "ACCEPTED" || id == "" || id == "alpha" {
		t.Fatalf("reply %s, want ACCEPTED with an id of the league's", first.Body)
	}
	if short := newcomer("beta", "rejoin-short"); short.String("status") != "ACCEPTED" {
		t.Fatalf("reply %s, want ACCEPTED: a rejoin token too short is not kept, the newcomer is", short.Body)
	}
	register(t, url, "referee", ackingPeer(t, nil, nil).Endpoint)
	if err := control.New(url, adminToken).Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}

	refused := func(reply leaguetest.Reply) {
		t.Helper()
		if reply.String("status") == "ACCEPTED" || reply.String("auth_token") != "" || reply.String("player_id") != "" {
			t.Errorf("reply %s, want it refused, without id or token", reply.Body)
		}
	}
	refused(newcomer("alpha", "rejoin-"+strings.Repeat("0f", 32)))
	refused(newcomer("beta", "rejoin-short"))
	again := newcomer("alpha", secret)
	if again.String("status") != "ACCEPTED" || again.String("player_id") != id {
		t.Fatalf("reply %s, want ACCEPTED as %s", again.Body, id)
	}
	token := again.String("auth_token")
	if reply := query(t, url, "player:"+id, token, "GET_STATUS"); reply.Result["success"] != true {
		t.Fatalf("the token issued is refused: %s", reply.Body)
	}
	refused(newcomer("alpha", secret))
}
