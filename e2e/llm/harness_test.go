package llm_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// askedMove is a model block with its harness and its asks.
type askedMove struct {
	Player       string
	InputTokens  int64           `json:"input_tokens"`
	OutputTokens int64           `json:"output_tokens"`
	ErrorType    string          `json:"error_type"`
	Rethinks     int             `json:"rethinks"`
	Harness      json.RawMessage `json:"harness"`
	Asks         []struct {
		InputTokens int64  `json:"input_tokens"`
		ErrorType   string `json:"error_type"`
		Feedback    string `json:"feedback"`
	} `json:"asks"`
}

// askedMoves are a match's model blocks, in its transcript's order.
func askedMoves(t *testing.T, m match) []askedMove {
	t.Helper()
	return modelBlocks(t, m, func(a *askedMove, player string) { a.Player = player })
}

// modelStats is a player's history.json stats.model with its rethinks.
func modelStats(t *testing.T, dir, player string) (moves, rethinks int, input int64) {
	t.Helper()
	var h struct {
		Stats struct {
			Model struct {
				Moves       int   `json:"moves"`
				Rethinks    int   `json:"rethinks"`
				InputTokens int64 `json:"input_tokens"`
			} `json:"model"`
		} `json:"stats"`
	}
	leaguetest.ReadJSON(t, filepath.Join(dir, "players", player, "history.json"), &h)
	return h.Stats.Model.Moves, h.Stats.Model.Rethinks, h.Stats.Model.InputTokens
}

// raceWithRethinks races a model player against a random one, the fake
// answering a near miss (a link of the page cut by its last letter) and
// then legal links.
func raceWithRethinks(t *testing.T, rethinks string) (*fakellm.Server, string, match, string) {
	t.Helper()
	fake := fakellm.Start(fakellm.NearMissLink, fakellm.Good)
	t.Cleanup(fake.Close)
	t.Setenv("OPENAI_API_KEY", testKey)
	dir := t.TempDir()
	matches, stdout := runLeague(t, dir, "--game", "link_race", "--players", "2", "--strategies", "llm,random",
		"--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--llm-rethinks", rethinks)
	if len(matches) != 1 {
		t.Fatalf("%d match files, want 1", len(matches))
	}
	return fake, dir, matches[0], stdout
}

// A near miss then a legal link: with --llm-rethinks 2 the race goes on,
// the first move's two asks in its model block with the game's error fed
// back, and every ask counted in the move's tokens and the player's;
// without rethinks the near miss loses the race, as it always did.
func TestRethinksSaveTheMove(t *testing.T) {
	fake, dir, m, stdout := raceWithRethinks(t, "2")
	moves := askedMoves(t, m)
	if len(moves) == 0 {
		t.Fatal("no model move in the match file")
	}
	first := moves[0]
	if first.ErrorType != "" || first.Rethinks != 1 || len(first.Asks) != 2 || first.Asks[0].ErrorType != engine.ErrorInvalidLink ||
		!strings.Contains(first.Asks[0].Feedback, "is not a link on the page") || first.InputTokens != 2*fakellm.InputTokens {
		t.Errorf("the first model move: %+v", first)
	}
	for _, e := range m.Result.Errors {
		t.Errorf("the race recorded an error: %+v", e)
	}
	lost, _ := engine.ModelErrorStatus(engine.ErrorInvalidLink)
	if m.Result.PlayerStatuses["P01"] == lost {
		t.Errorf("P01 ended %s after a rethink", lost)
	}
	var tokens int64
	for _, mv := range moves {
		tokens += mv.InputTokens
	}
	asked := int64(len(fake.Requests()))
	played, rethinks, input := modelStats(t, dir, "P01")
	if tokens != asked*fakellm.InputTokens || input != tokens || played != len(moves) || rethinks != 1 || asked != int64(len(moves))+1 {
		t.Errorf("%d requests, %d moves of %d tokens; history: %d moves, %d rethinks, %d tokens", asked, len(moves), tokens, played, rethinks, input)
	}
	second := fake.Requests()[1].Prompt
	if !strings.Contains(second, llm.RethinkLabel) || !strings.Contains(second, engine.ErrorInvalidLink) {
		t.Errorf("the rethink was asked without the game's error:\n%s", second)
	}
	if page := reportPage(t, dir); !strings.Contains(page, "2 asks (1 rethinks)") || !strings.Contains(page, `<th class="n">rethinks</th>`) {
		t.Errorf("the report does not count the rethink:\n%s", page)
	}
	if !slices.ContainsFunc(strings.Split(stdout, "\n"), func(line string) bool {
		f := strings.Fields(line)
		return len(f) == 11 && f[0] == "P01" && f[8] == "1" // --no-ui's model table: its rethinks column
	}) {
		t.Errorf("--no-ui's model table does not count the rethink:\n%s", stdout)
	}

	fake, _, m, _ = raceWithRethinks(t, "0")
	moves = askedMoves(t, m)
	if len(moves) != 1 || moves[0].ErrorType != engine.ErrorInvalidLink || moves[0].Rethinks != 0 || moves[0].Asks != nil ||
		m.Result.PlayerStatuses["P01"] != lost || len(fake.Requests()) != 1 {
		t.Errorf("without rethinks: moves %+v, P01 %s, %d requests", moves, m.Result.PlayerStatuses["P01"], len(fake.Requests()))
	}
}

// harnessRoster is two players of one model with two harnesses, and a
// random one.
func harnessRoster(t *testing.T, base string) string {
	t.Helper()
	entry := func(name string, harness map[string]any) map[string]any {
		l := map[string]any{"provider": "openai", "model": "fake", "base_url": base}
		for k, v := range harness {
			l[k] = v
		}
		return map[string]any{"name": name, "strategy": "llm", "llm": l}
	}
	return leaguetest.WriteRoster(t, entry("cold", map[string]any{"temperature": 0, "rethinks": 1}),
		entry("hot", map[string]any{"temperature": 1.5, "history": "none", "seed": 11}),
		map[string]any{"name": "dice", "strategy": "random"})
}

// Two harnesses of one model are two players of one league, each move
// carrying its player's harness; recorded, the league replays with the
// provider gone to the same standings and match files.
func TestTwoHarnessesRecordAndReplay(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Setenv("OPENAI_API_KEY", testKey)
	record := t.TempDir()
	recorded := t.TempDir()
	roster := harnessRoster(t, fake.OpenAIURL())
	runLeague(t, recorded, "--roster", roster, "--games-per-pair", "2", "--suspend-after", "0", "--record-models", record)
	fake.Close()
	harnesses := map[string]string{}
	for _, m := range readMatches(t, recorded) {
		for _, mv := range askedMoves(t, m) {
			if prev, ok := harnesses[mv.Player]; ok && prev != string(mv.Harness) {
				t.Errorf("%s: %s's harness %s, earlier %s", m.MatchID, mv.Player, mv.Harness, prev)
			}
			harnesses[mv.Player] = string(mv.Harness)
		}
	}
	if len(harnesses) != 2 || harnesses["P01"] != `{"rethinks":1,"temperature":0}` ||
		harnesses["P02"] != `{"history":"none","seed":11,"temperature":1.5}` {
		t.Errorf("the players' harnesses: %v", harnesses)
	}
	checkHarnessInRecord(t, record)
	page := reportPage(t, recorded)
	for _, want := range []string{"<td>temperature 0, rethinks 1</td>", "<td>temperature 1.5, seed 11, history none</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the report does not show the harness %q", want)
		}
	}

	t.Setenv("OPENAI_API_KEY", "")
	replayed := t.TempDir()
	runLeague(t, replayed, "--roster", roster, "--games-per-pair", "2", "--suspend-after", "0", "--replay-models", record)
	if got, want := timeless(t, filepath.Join(replayed, "leagues", leagueID, "standings.json")),
		timeless(t, filepath.Join(recorded, "leagues", leagueID, "standings.json")); got != want {
		t.Errorf("replayed standings:\n%s\nrecorded:\n%s", got, want)
	}
	files, _ := filepath.Glob(filepath.Join(recorded, "matches", leagueID, "*.json"))
	if len(files) != 6 {
		t.Fatalf("%d recorded match files, want 6", len(files))
	}
	for _, f := range files {
		if got, want := timeless(t, filepath.Join(replayed, "matches", leagueID, filepath.Base(f))), timeless(t, f); got != want {
			t.Errorf("%s replayed differs from its record:\n%s", filepath.Base(f), lineDiff(got, want))
		}
	}
}

// checkHarnessInRecord: every record file of the two players names its
// harness, the one whose requests it holds.
func checkHarnessInRecord(t *testing.T, record string) {
	t.Helper()
	players, _ := os.ReadDir(record)
	if len(players) != 2 {
		t.Fatalf("record folders %v, want the two model players'", players)
	}
	seen := map[string]bool{}
	for _, p := range players {
		files, _ := filepath.Glob(filepath.Join(record, p.Name(), "*.json"))
		for _, f := range files {
			var ex struct {
				Harness map[string]any `json:"harness"`
			}
			raw, _ := os.ReadFile(f)
			if json.Unmarshal(raw, &ex) != nil || ex.Harness == nil {
				t.Errorf("%s names no harness", f)
			}
			seen[p.Name()+" "+string(mustJSON(ex.Harness))] = true
		}
	}
	if len(seen) != 2 {
		t.Errorf("the record's harnesses by player: %v", seen)
	}
}

func mustJSON(v any) []byte {
	raw, _ := json.Marshal(v)
	return raw
}

// reportPage is the HTML page `leaguetui report` writes of the data folder.
func reportPage(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report")
	run := leaguetest.RunLeaguetui(t, dir, time.Minute, nil, "report", dir, "--out", out)
	if run.Err != nil {
		t.Fatalf("leaguetui report: %v\n%s%s", run.Err, run.Stdout, run.Stderr)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}
