package hostile_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// refereeRegistration is a register_referee request; meta overrides fields
// of referee_meta.
func refereeRegistration(endpoint string, meta map[string]any) map[string]any {
	m := leaguetest.With(map[string]any{"display_name": "rogue referee", "version": "1.0.0",
		"game_types": []string{"even_odd"}, "contact_endpoint": endpoint, "max_concurrent_matches": 1}, meta)
	return leaguetest.With(leaguetest.Envelope("REFEREE_REGISTER_REQUEST", "referee:rogue"), map[string]any{"referee_meta": m})
}

// TestUnkeyedReferee: a referee without the league's referee key, or with
// a wrong one, is refused, before the league starts and during it, and
// changes nothing; the league then plays with its own referee.
func TestUnkeyedReferee(t *testing.T) {
	t.Parallel()
	l := startLeague(t)
	attempt := func(t *testing.T) {
		before := l.state(t)
		for key, code := range map[string]string{"": "E011", "ref-guessed": "E012", leaguetest.RefereeKey + "x": "E012"} {
			reply := leaguetest.Call(t, l.manager.Endpoint, "register_referee",
				refereeRegistration(plainPeer(t).Endpoint, map[string]any{"referee_key": key}))
			wantRefusal(t, reply, code, "referee_key")
			if reply.String("auth_token") != "" || reply.String("manager_key") != "" {
				t.Errorf("a refused referee got a token: %s", reply.Body)
			}
		}
		before.unchanged(t, l)
	}
	t.Run("before the start", attempt)
	l.playsToTheEnd(t)
	t.Run("after the start", attempt)
}

// TestManagerWithoutKey: a manager with no referee key admits no referee,
// and says why; with --open-referees it admits any, and its /health says
// the league is open.
func TestManagerWithoutKey(t *testing.T) {
	t.Parallel()
	for _, open := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"manager", "--port", "0", "--data", dir}
		if open {
			args = append(args, "--open-referees")
		}
		mgr := leaguetest.Start(t, "manager", dir, false, []string{"LEAGUETUI_ADMIN_TOKEN=" + adminToken}, args...)
		reply := leaguetest.Call(t, mgr.Endpoint, "register_referee", refereeRegistration(plainPeer(t).Endpoint, nil))
		if open {
			if reply.String("status") != "ACCEPTED" {
				t.Errorf("--open-referees refused a referee: %s", reply.Body)
			}
		} else {
			wantRefusal(t, reply, "E012", "--open-referees")
		}
		if got := health(t, mgr.Endpoint)["open_referees"] == true; got != open {
			t.Errorf("with --open-referees %v, /health says open_referees %v", open, got)
		}
	}
}

func health(t *testing.T, endpoint string) map[string]any {
	t.Helper()
	resp, err := http.Get(control.HealthURL(endpoint))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var h map[string]any
	if err := json.Unmarshal(body, &h); err != nil {
		t.Fatalf("/health: %v\n%s", err, body)
	}
	return h
}

// TestForgedStartMatch: a start_match that does not come from the
// referee's own manager (no auth_token, or a wrong one) is refused, the
// players named in it hear nothing, and nothing changes; the manager's own
// start_match still works, since the league then plays to its end.
func TestForgedStartMatch(t *testing.T) {
	t.Parallel()
	l := startLeague(t)
	ref := l.referees[0]
	invited := make(chan string, 4)
	victim := leaguetest.NewPeer(t, func(r leaguetest.PeerRequest) (int, []byte) {
		invited <- r.Method
		return http.StatusOK, leaguetest.ResultReply(r.ID, map[string]any{"status": "ok"})
	})
	before := l.state(t)
	for token, code := range map[string]string{"": "E011", "mk-guessed": "E012", adminToken: "E012"} {
		forged := leaguetest.With(startMatch("R1M1"), map[string]any{"auth_token": token,
			"player_A_endpoint": victim.Endpoint, "player_B_endpoint": victim.Endpoint})
		if token == "" {
			forged = leaguetest.With(forged, map[string]any{"auth_token": nil})
		}
		wantRefusal(t, leaguetest.Call(t, ref.Endpoint, "start_match", forged), code, "start_match")
	}
	before.unchanged(t, l)
	l.playsToTheEnd(t)
	select {
	case m := <-invited:
		t.Errorf("a player named in a forged start_match was sent %s", m)
	default:
	}
}

// TestRefereeKeyFromConfigFile: a manager and a referee started with a
// config folder whose system.json names a referee key file, and no
// LEAGUETUI_REFEREE_KEY, share that key: the referee is admitted, a
// registration without the key is refused, and so is one with the key
// from a referee that does not say it forwards the players' match tickets.
func TestRefereeKeyFromConfigFile(t *testing.T) {
	t.Parallel()
	dir, cfgDir := t.TempDir(), t.TempDir()
	for name, content := range map[string]string{"system.json": `{"security": {"referee_key_file": "referee.key"}}`,
		"referee.key": "ref-from-the-config-folder\n"} {
		if err := os.WriteFile(filepath.Join(cfgDir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	mgr := leaguetest.Start(t, "manager", dir, false, []string{"LEAGUETUI_ADMIN_TOKEN=" + adminToken},
		"manager", "--port", "0", "--data", dir, "--config", cfgDir)
	ref := leaguetest.Start(t, "referee", dir, true, nil, "referee", "--port", "0", "--data", dir, "--config", cfgDir,
		"--manager", mgr.Endpoint, "--name", "REF01")
	if ref.ID != "REF01" {
		t.Errorf("the referee with the config's key registered as %q", ref.ID)
	}
	reply := leaguetest.Call(t, mgr.Endpoint, "register_referee", refereeRegistration(plainPeer(t).Endpoint, nil))
	wantRefusal(t, reply, "E011", "referee_key")
	reply = leaguetest.Call(t, mgr.Endpoint, "register_referee", refereeRegistration(plainPeer(t).Endpoint,
		map[string]any{"referee_key": "ref-from-the-config-folder"}))
	wantRefusal(t, reply, "E003", "match_tickets")
	if health(t, mgr.Endpoint)["open_referees"] == true {
		t.Error("a manager with a referee key from its config says the league is open")
	}
}
