package check_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/check"
	"github.com/leaguetui/leaguetui/league/gameprog"
)

func checkGame(t *testing.T, manifest string) check.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m, err := config.LoadGameManifest(manifest)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gameprog.Register(m)
	if err != nil {
		t.Fatal(err)
	}
	transcript := &check.GameTranscript{}
	g.SetSite(gameprog.Site{Shim: leaguetest.Binary(t), LogDir: t.TempDir(), Record: transcript.Record})
	r, err := check.RunGame(ctx, check.GameOptions{Manifest: m, Game: g, Transcript: transcript})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func gameResults(r check.Report) map[string]check.Result {
	out := map[string]check.Result{}
	for _, res := range r.Results {
		out[res.ID] = res
	}
	return out
}

// TestGameChecksPassTicTacToe: the example game passes every game check.
func TestGameChecksPassTicTacToe(t *testing.T) {
	for _, manifest := range []string{"../../examples/games/tic_tac_toe.json", "testdata/games/good.json"} {
		r := checkGame(t, manifest)
		if len(r.Results) != 6 {
			t.Errorf("%s: %d results, want the 6 game checks", manifest, len(r.Results))
		}
		for _, res := range r.Results {
			if res.Status != check.Pass {
				t.Errorf("%s: %s %s: %s (got %s)", manifest, res.Status, res.ID, res.Message, res.Got)
			}
		}
		if r.Sandbox == "" {
			t.Errorf("%s: no sandbox line", manifest)
		}
	}
}

// TestGameChecksFailBadGames: each misbehaving game fails its check.
func TestGameChecksFailBadGames(t *testing.T) {
	bad := map[string]string{
		"random":  "game/deterministic",
		"refuse":  "game/accepts-legal-moves",
		"crash":   "game/refuses-garbage",
		"endless": "game/ends-within-turn-limit",
		"leak":    "game/hides-the-other-seat",
		"slow":    "game/turn-time",
	}
	covered := map[string]bool{}
	for _, id := range bad {
		covered[id] = true
	}
	for _, d := range check.Selected(check.GameRole, true) {
		if !covered[d.ID] {
			t.Errorf("no bad game fails %s", d.ID)
		}
	}
	for mode, id := range bad {
		t.Run(mode, func(t *testing.T) {
			r := checkGame(t, "testdata/games/"+mode+".json")
			res := gameResults(r)[id]
			if res.Status != check.Fail {
				t.Errorf("%s: %s is %s (%s), want FAIL", mode, id, res.Status, res.Message)
			}
			if r.Summary().OK {
				t.Errorf("%s: the summary is OK", mode)
			}
			t.Logf("%s: %s", id, res.Message)
		})
	}
}

// TestGameCheckThroughTheBinary runs `leaguetui check --game` once.
func TestGameCheckThroughTheBinary(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	junit := filepath.Join(t.TempDir(), "game.xml")
	run := func(manifest string) (string, error) {
		cmd := exec.CommandContext(ctx, leaguetest.Binary(t), "check", "--json", "--junit", junit, "--game", manifest)
		cmd.Env = append(cmd.Environ(), leaguetest.ChildEnv()...)
		out, err := cmd.Output()
		return string(out), err
	}
	out, err := run("../../examples/games/tic_tac_toe.json")
	if err != nil {
		t.Fatalf("tic_tac_toe: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last struct {
		Summary check.Summary `json:"summary"`
		Role    string        `json:"role"`
		Sandbox string        `json:"sandbox"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if !last.Summary.OK || last.Summary.Passed != 6 || last.Role != "game" || last.Sandbox == "" {
		t.Errorf("tic_tac_toe: %+v", last)
	}
	xml, err := os.ReadFile(junit)
	if err != nil || !strings.Contains(string(xml), `name="game/deterministic"`) {
		t.Errorf("--junit: %v\n%s", err, xml)
	}
	out, err = run("testdata/games/crash.json")
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || !strings.Contains(out, `"game/refuses-garbage"`) {
		t.Errorf("crash: %v\n%s", err, out)
	}
}
