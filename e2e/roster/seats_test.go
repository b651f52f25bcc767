package roster_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// joinCode reads the join code leaguetui made for an external entry, from
// the data folder's join-codes.json, which only its owner may read.
func joinCode(t *testing.T, dataDir, name string) string {
	t.Helper()
	path := filepath.Join(dataDir, "join-codes.json")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no join codes: %v", err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Errorf("%s has mode %o, want 0600: it holds secrets", path, mode)
	}
	var codes map[string]string
	leaguetest.ReadJSON(t, path, &codes)
	if len(codes[name]) < 32 {
		t.Fatalf("the join code of %s is %q, want a long random secret", name, codes[name])
	}
	return codes[name]
}

// startExternal starts our own player as the roster's external entry
// name, with the join code the organiser hands its author.
func startExternal(t *testing.T, dataDir, url, name string, args ...string) {
	t.Helper()
	env := []string{"LEAGUETUI_JOIN_CODE=" + joinCode(t, dataDir, name)}
	all := append([]string{"player", "--port", "0", "--data", t.TempDir(), "--manager", url, "--name", name}, args...)
	leaguetest.Start(t, "player "+name, filepath.Join(dataDir, "test-output"), true, env, all...)
}

// registerAs sends a stranger's registration under name, from an
// endpoint of its own, with the fields of meta in player_meta.
func registerAs(t *testing.T, url, name string, meta map[string]any) leaguetest.Reply {
	t.Helper()
	peer := leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		return http.StatusOK, leaguetest.ResultReply(req.ID, map[string]any{"status": "ok"})
	})
	meta = leaguetest.With(map[string]any{"display_name": name, "version": "1.0.0", "game_types": []string{"even_odd"},
		"contact_endpoint": peer.Endpoint}, meta)
	params := leaguetest.With(leaguetest.Envelope("LEAGUE_REGISTER_REQUEST", "player:"+name), map[string]any{"player_meta": meta})
	return leaguetest.Call(t, url, "register_player", params)
}

func wantRefused(t *testing.T, reply leaguetest.Reply, who, reason string) {
	t.Helper()
	if reply.String("status") != "REJECTED" || !strings.Contains(reply.String("reason"), reason) {
		t.Errorf("%s: %s, want REJECTED: %s", who, reply.Body, reason)
	}
}

// TestSeatsAndJoinCodesNoUI: a league --no-ui starts with two built-in
// players, an external entry and one open seat takes exactly these: the
// external entry's name only with the join code leaguetui wrote for it,
// one stranger in the seat, no second one, and no stranger under a name of
// an id's form. Its built-in players register with codes of their own. It
// then plays with the four.
func TestSeatsAndJoinCodesNoUI(t *testing.T) {
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"}, map[string]any{"name": "dan", "strategy": "counter"},
		map[string]any{"name": "carol", "external": true})
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "5", "--roster", roster,
		"--open-seats", "1"}, fast...)...)
	url := run.managerURL(t)
	codes := filepath.Join(dataDir, "join-codes.json")
	run.AwaitLine(t, "the join codes of carol are in "+codes, 10*time.Second)

	wantRefused(t, registerAs(t, url, "carol", nil), "carol without her join code", "register with the join code")
	wantRefused(t, registerAs(t, url, "carol", map[string]any{"join_code": "join-0000"}), "carol with a wrong code",
		`player_meta.join_code is not the join code of "carol"`)
	wantRefused(t, registerAs(t, url, "P99", nil), "a stranger named P99", "has the form of an agent id")
	leaguetest.StartPlayer(t, t.TempDir(), url, "zed", "--seed", "5")
	run.AwaitLine(t, "joined: zed (P04); waiting for carol", 30*time.Second)
	wantRefused(t, registerAs(t, url, "yan", nil), "a second stranger for one seat", "no open seat is left")
	startExternal(t, dataDir, url, "carol", "--seed", "5")
	run.AwaitLine(t, "everyone has joined", 30*time.Second)
	run.wait(t)
	rows := rowsByName(readStandings(t, dataDir))
	want := map[string]string{"bob": "P01", "dan": "P02", "carol": "P03", "zed": "P04"}
	if len(rows) != len(want) {
		t.Errorf("standings %v, want %v", rows, want)
	}
	for name, id := range want {
		if rows[name].PlayerID != id {
			t.Errorf("%s is %q in the standings, want %s", name, rows[name].PlayerID, id)
		}
	}
	raw, err := os.ReadFile(codes)
	if err != nil {
		t.Fatal(err)
	}
	var kept map[string]string
	err = json.Unmarshal(raw, &kept)
	if err != nil || len(kept) != 3 || kept["bob"] == "" || kept["dan"] == "" || kept["carol"] == "" {
		t.Errorf("%s: %s (%v), want the codes of the league's own bob, dan and carol, no one else's", codes, raw, err)
	}
}

// TestDeadProgramEndsTheWait: a league with no join window waits for its
// roster program; when that program exits at once with its restarts
// spent, leaguetui stops waiting and exits with an error naming it,
// rather than waiting for ever.
func TestDeadProgramEndsTheWait(t *testing.T) {
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"},
		map[string]any{"name": "quitter", "command": []string{"sh", "-c", "echo giving up; exit 3"}, "restarts": 1})
	run := leaguetest.RunLeaguetui(t, dataDir, 2*time.Minute, nil, append([]string{"--no-ui", "--data", dataDir, "--roster", roster}, fast...)...)
	if run.Err == nil {
		t.Fatalf("leaguetui exited 0 though its program stays down:\n%s", run.Stderr)
	}
	for _, want := range []string{"program quitter exited (exit status 3); starting it again",
		"roster program quitter exited (exit status 3) with no restart left before it registered; the league cannot wait for it",
		filepath.Join(dataDir, "logs", "programs", "quitter.log")} {
		if !strings.Contains(run.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, run.Stderr)
		}
	}
}
