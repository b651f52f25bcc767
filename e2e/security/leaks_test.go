package security_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/ticket"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

// timeouts keep a league short, yet roomy for a loaded machine.
var timeouts = []string{"--join-timeout", "5s", "--move-timeout", "5s", "--generic-timeout", "5s", "--retry-delay", "50ms"}

// league is a finished league of real processes and one fake player.
type league struct {
	dir      string
	admin    string
	manager  *process.Child
	referees []*process.Child
	players  []*process.Child
	spy      *fakePlayer // registered like a player, records what it receives
	spyKey   string      // the ticket key the manager gave the fake player
	spyProof string      // the manager_key the manager gave the fake player
	ctl      *control.Client
}

// playLeague runs a manager, two referees, three players and the fake
// player to the end of the league, and waits until the fake player has
// heard LEAGUE_COMPLETED, the last message the manager sends.
func playLeague(t *testing.T) *league {
	t.Helper()
	l := &league{dir: t.TempDir(), admin: randomToken(t, "adm")}
	l.manager = leaguetest.StartManager(t, l.dir, l.admin, append([]string{"--seed", "21"}, timeouts...)...)
	l.ctl = control.New(l.manager.Endpoint, l.admin)
	for _, name := range []string{"REF01", "REF02"} {
		l.referees = append(l.referees, leaguetest.StartReferee(t, l.dir, l.manager.Endpoint, name, timeouts...))
	}
	for i := range 3 {
		l.players = append(l.players, leaguetest.StartPlayer(t, l.dir, l.manager.Endpoint, fmt.Sprintf("real%d", i+1),
			append([]string{"--strategy", "random", "--seed", fmt.Sprint(i + 1)}, timeouts...)...))
	}
	l.spy = newFakePlayer(t, "", "")
	reply := leaguetest.Call(t, l.manager.Endpoint, "register_player", leaguetest.With(
		leaguetest.Envelope("LEAGUE_REGISTER_REQUEST", "player:spy"), map[string]any{"player_meta": map[string]any{
			"display_name": "spy", "version": "1.0.0", "game_types": []string{"even_odd"}, "contact_endpoint": l.spy.Endpoint}}))
	if reply.String("status") != "ACCEPTED" {
		t.Fatalf("the fake player's registration: %s", reply.Body)
	}
	l.spy.setIdentity(reply.String("player_id"), reply.String("auth_token"))
	if l.spyKey = reply.String("match_ticket_key"); l.spyKey == "" {
		t.Fatalf("the manager gave the fake player no match ticket key: %s", reply.Body)
	}
	if l.spyProof = reply.String("manager_key"); l.spyProof == "" {
		t.Fatalf("the manager gave the fake player no manager key: %s", reply.Body)
	}

	if err := l.ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	leaguetest.UntilCompleted(t, l.ctl, 0, 3*time.Minute)
	await(t, l.spy.completed, "LEAGUE_COMPLETED at the fake player")
	return l
}

// stop ends every process of the league, so that all they write is written.
func (l *league) stop(t *testing.T) {
	t.Helper()
	for _, c := range append(append(slices.Clone(l.players), l.referees...), l.manager) {
		if err := c.Stop(30 * time.Second); err != nil {
			t.Errorf("stop %s: %v", c.Name, err)
		}
	}
}

// TestNoTokenLeaks plays a league, then tries to get a token out of every
// agent: from error replies to wrong and foreign tokens, by posing as a
// referee to a player and as the manager to a referee, and from what the
// fake player received. Finally it greps every file of the data folder but
// the credentials for every token issued, whole or in part.
func TestNoTokenLeaks(t *testing.T) {
	t.Parallel()
	l := playLeague(t)
	creds := credentials(t, l.dir)
	var issued []secret
	for _, c := range append(slices.Clone(l.players), l.referees...) {
		cred, ok := creds[c.ID]
		if !ok || cred.AuthToken == "" {
			t.Fatalf("%s (%s) saved no credentials", c.Name, c.ID)
		}
		issued = append(issued, secret{c.ID, cred.AuthToken})
	}
	spyID, spyToken := l.spy.id, l.spy.token
	secrets := append(issued, secret{spyID, spyToken}, secret{"the admin", l.admin}, secret{"the fake player's ticket key", l.spyKey})

	t.Run("the fake player got no token", func(t *testing.T) {
		checkReceived(t, l.spy, secrets, l.spyKey, l.spyProof, "handle_game_invitation", "choose_parity", "notify_match_result",
			"notify_round", "update_standings", "notify_league_completed")
	})
	secrets = append(secrets, secret{"the fake player's manager key", l.spyProof})
	t.Run("error replies echo no token", func(t *testing.T) {
		secrets = append(secrets, probeErrors(t, l, creds, secret{spyID, spyToken})...)
	})
	t.Run("posing as a referee", func(t *testing.T) {
		poseAsReferee(t, l.dir, l.players[0], creds, secrets)
	})
	t.Run("posing as the manager", func(t *testing.T) {
		secrets = append(secrets, poseAsManager(t, l.referees[1], secrets)...)
	})
	t.Run("the feed and every GET hold no token nor hash", func(t *testing.T) {
		checkServedGETs(t, l, secrets)
	})

	l.stop(t)
	matchFile, err := store.Layout{Root: l.dir, LeagueID: leagueID}.Match(fakeMatch)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(matchFile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the referee wrote a file for the match a fake manager gave it (%v)", err)
	}
	leaks, files := grepTree(t, l.dir, secrets, "credentials")
	for path, found := range leaks {
		t.Errorf("%s holds %v", path, found)
	}
	checkKinds(t, files, "test-output/*.out")
	t.Logf("grepped %d files of the data folder for %d tokens: %d leak", len(files), len(secrets), len(leaks))
	// The grep finds what is there: every agent's token is in its
	// credentials file.
	inCredentials, _ := grepTree(t, filepath.Join(l.dir, "credentials"), issued)
	if len(inCredentials) != len(issued) {
		t.Errorf("the grep found tokens in %d credentials files, want %d: %v", len(inCredentials), len(issued), inCredentials)
	}
}

// checkReceived requires that nothing the fake player received carries a
// token field, or a piece of any token, in its body or headers.
// It must have received at least the methods in want.
func checkReceived(t *testing.T, f *fakePlayer, secrets []secret, ticketKey, managerKey string, want ...string) {
	t.Helper()
	pieces := fragments(secrets)
	got := f.requests()
	if len(got) == 0 {
		t.Fatal("the fake player received nothing")
	}
	methods := map[string]int{}
	tickets := 0
	for _, r := range got {
		methods[r.method]++
		params, ticketed := withoutTicket(r.params, ticketKey)
		if ticketed && r.method != "notify_game_error" {
			tickets++
		}
		if r.method == "notify_league_completed" {
			var signed bool
			if params, signed = withoutManagerKey(params, managerKey); !signed {
				t.Errorf("notify_league_completed to the fake player does not carry its own manager_key")
			}
		}
		if field := tokenField(params); field != "" {
			t.Errorf("%s to the fake player carries %s", r.method, field)
		}
		if found := leaksIn(r.params+r.headers, pieces); len(found) > 0 {
			t.Errorf("%s to the fake player holds %v", r.method, found)
		}
	}
	for _, w := range want {
		if methods[w] == 0 {
			t.Errorf("the fake player never received %s (got %v)", w, methods)
		}
	}
	if want := methods["handle_game_invitation"] + methods["choose_parity"] + methods["notify_match_result"]; tickets != want {
		t.Errorf("%d of the fake player's %d match calls carried its match ticket", tickets, want)
	}
	t.Logf("the fake player received %d requests: %v", len(got), methods)
}

// withoutTicket is a message without its auth_token when that is the
// match ticket of its match and sender for the player holding key: the
// one thing a referee sends a player as auth_token.
func withoutTicket(raw, key string) (string, bool) {
	var msg map[string]any
	if json.Unmarshal([]byte(raw), &msg) != nil {
		return raw, false
	}
	got, _ := msg["auth_token"].(string)
	league, _ := msg["league_id"].(string)
	match, _ := msg["match_id"].(string)
	sender, _ := msg["sender"].(string)
	_, referee := protocol.SplitSender(sender)
	if got == "" || !ticket.Valid(key, got, league, match, referee) {
		return raw, false
	}
	delete(msg, "auth_token")
	out, _ := json.Marshal(msg)
	return string(out), true
}

// withoutManagerKey is a message without its auth_token when that is
// key, the fake player's own manager_key: what the manager proves itself
// with, and the one thing it sends a player as auth_token.
func withoutManagerKey(raw, key string) (string, bool) {
	var msg map[string]any
	if json.Unmarshal([]byte(raw), &msg) != nil || msg["auth_token"] != key {
		return raw, false
	}
	delete(msg, "auth_token")
	out, _ := json.Marshal(msg)
	return string(out), true
}

// wantNoEcho requires a reply without a token field and without a piece of
// any secret.
func wantNoEcho(t *testing.T, what string, reply leaguetest.Reply, pieces map[string]string) {
	t.Helper()
	if found := leaksIn(string(reply.Body), pieces); len(found) > 0 {
		t.Errorf("%s: the reply holds %v", what, found)
	}
	if field := tokenField(string(reply.Body)); field != "" {
		t.Errorf("%s: the reply carries %s", what, field)
	}
	if reply.Result != nil {
		if field := tokenFieldOf(reply.Result); field != "" {
			t.Errorf("%s: the result carries %s", what, field)
		}
	}
}

func tokenFieldOf(msg map[string]any) string {
	for _, k := range tokenFields {
		if v, ok := msg[k]; ok && v != "" && v != nil {
			return k
		}
	}
	return ""
}
