package scan_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/scan"
)

// turn is one move of the model player P01 in a hand-built match file:
// what the call showed it and what it answered.
type turn struct {
	current string
	links   []string
	path    []string
	choice  string         // its move, "" for none
	model   map[string]any // its model block
}

// game is a hand-built match of P01 (seat A, the model player) against
// P02, as a referee writes it and a reader decodes it.
type game struct {
	id, gameType, status, winner string
	statusA                      string // P01's status in a race
	offenders                    []string
	turns                        []turn
	extra                        []map[string]any // more exchanges after the turns, as {"to", "message_type", "content"}
}

// file writes the game as JSON and reads it back as a MatchFile, so the
// scanners see what they see in a data folder: numbers as float64, lists
// as []any.
func (g game) file(t testing.TB) *protocol.MatchFile {
	t.Helper()
	if g.gameType == "" {
		g.gameType = "link_race"
	}
	var transcript []map[string]any
	add := func(from, to, messageType string, content map[string]any) {
		content["message_type"] = messageType
		transcript = append(transcript, map[string]any{"seq": len(transcript) + 1, "timestamp": "2026-01-01T00:00:00Z",
			"message_type": messageType, "from": from, "to": to, "content": content})
	}
	for i, tr := range g.turns {
		request := map[string]any{"move_type": "navigate", "turn": i + 1, "context": map[string]any{
			"current_page": tr.current, "links": tr.links, "path": tr.path, "target_page": "Goal"}}
		if g.gameType == "even_odd" {
			request = map[string]any{"move_type": "choose_parity", "valid_options": []string{"even", "odd"}}
		}
		add("referee:REF01", "player:P01", "GAME_MOVE_CALL", map[string]any{"player_id": "P01", "move_request": request})
		answer := map[string]any{"player_id": "P01", "move_data": map[string]any{"move_type": "navigate", "choice": tr.choice}}
		if tr.model != nil {
			answer["model"] = tr.model
		}
		add("player:P01", "referee:REF01", "GAME_MOVE_RESPONSE", answer)
	}
	for _, x := range g.extra {
		add("referee:REF01", x["to"].(string), x["message_type"].(string), x["content"].(map[string]any))
	}
	result := map[string]any{"status": g.status, "winner_player_id": nil, "choices": map[string]string{}, "reason": "built",
		"score": map[string]int{}, "player_statuses": map[string]string{"P01": g.statusA}}
	if g.winner != "" {
		result["winner_player_id"] = g.winner
	}
	if g.offenders != nil {
		result["offending_players"] = g.offenders
	}
	raw, err := json.Marshal(map[string]any{"schema_version": "1", "match_id": g.id, "league_id": "league_test", "round_id": 1,
		"game_type": g.gameType, "players": map[string]string{"player_A": "P01", "player_B": "P02"}, "referee_id": "REF01",
		"lifecycle": map[string]string{"state": "FINISHED"}, "transcript": transcript, "result": result})
	if err != nil {
		t.Fatal(err)
	}
	var f protocol.MatchFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

// model is a model block of the fake model "m1".
func model(errorType string, meta map[string]any, reply string) map[string]any {
	block := map[string]any{"provider": "openai", "model": "m1", "input_tokens": 120, "output_tokens": 12,
		"reasoning": map[string]any{"prompt": "the prompt", "reply": reply}}
	if errorType != "" {
		block["error_type"], block["status"], block["metadata"] = errorType, "LOST_INVALID_MOVE", meta
	}
	return block
}

var (
	good       = model("", nil, `tool call: navigate {"page":"B"}`)
	links      = []string{"Canyon Forest", "Market Mountain", "Start"}
	firstTurn  = turn{current: "Start", links: links, path: []string{"Start"}}
	secondTurn = turn{current: "Canyon Forest", links: []string{"Start", "Lagoon"}, path: []string{"Start", "Canyon Forest"}}
)

// failedAtFirst is a race P01 lost at its first move with the model block.
func failedAtFirst(id, status string, block map[string]any) game {
	tr := firstTurn
	tr.model = block
	return game{id: id, status: "WIN", winner: "P02", statusA: status, turns: []turn{tr}}
}

// cases are a game of every category, with the line scan prints for it:
// docs/scan.md's examples are these lines.
func cases() []struct {
	want scan.Category
	game game
	line string
} {
	moved := func(tr turn, choice string) turn { tr.choice, tr.model = choice, good; return tr }
	return []struct {
		want scan.Category
		game game
		line string
	}{
		{scan.Loop, game{id: "R1M1", status: "DRAW", statusA: "LOST_MAX_STEPS",
			turns: []turn{moved(firstTurn, "Canyon Forest"), moved(secondTurn, "Start")}},
			`league_test R1M1 P01: loop at move 2: went back to "Start", already on its path at step 1`},
		{scan.NearMiss, failedAtFirst("R1M2", "LOST_INVALID_MOVE", model("MODEL_INVALID_LINK",
			map[string]any{"requested_page": "Canyon Forrest", "has_tool_call_request": true}, `tool call: navigate {"page":"Canyon Forrest"}`)),
			`league_test R1M2 P01: near_miss_link at move 1: asked for "Canyon Forrest"; the page links "Canyon Forest"`},
		{scan.InvalidLink, failedAtFirst("R1M3", "LOST_INVALID_MOVE", model("MODEL_INVALID_LINK",
			map[string]any{"requested_page": "No Such Page Anywhere"}, "")),
			`league_test R1M3 P01: invalid_link at move 1: asked for "No Such Page Anywhere", no link of "Start" (3 links)`},
		{scan.Refusal, failedAtFirst("R1M4", "LOST_INVALID_MOVE", model("MODEL_NO_TOOL_CALL",
			map[string]any{"has_tool_call_request": false}, "I'm sorry, but I can't help with that.")),
			`league_test R1M4 P01: refusal at move 1: no move; the reply declines: "I'm sorry, but I can't help with that."`},
		{scan.ToolMisuse, failedAtFirst("R1M5", "LOST_INVALID_MOVE", model("MODEL_INVALID_TOOL",
			map[string]any{"tool_call": map[string]any{"name": "search_wikipedia", "arguments": map[string]any{"query": "x"}}}, "")),
			`league_test R1M5 P01: tool_misuse at move 1: called "search_wikipedia", not the game's tool "navigate"`},
		{scan.Unparseable, failedAtFirst("R1M6", "LOST_INVALID_MOVE", model("MODEL_NO_TOOL_CALL",
			map[string]any{"has_tool_call_request": false}, "I will move.")),
			`league_test R1M6 P01: unparseable_answer at move 1: no tool call and no move in the reply: "I will move."`},
		{scan.ProviderError, failedAtFirst("R1M7", "ERROR", model("PROVIDER_API_ERROR",
			map[string]any{"exception_type": "InternalServerError", "status_code": 500}, "")),
			`league_test R1M7 P01: provider_error at move 1: PROVIDER_API_ERROR InternalServerError (HTTP 500)`},
		{scan.Timeout, failedAtFirst("R1M8", "ERROR", model("PROVIDER_TIMEOUT",
			map[string]any{"exception_type": "APITimeoutError"}, "")),
			`league_test R1M8 P01: timeout at move 1: the provider did not answer in time (APITimeoutError)`},
		{scan.BudgetStop, failedAtFirst("R1M9", "ERROR", budgetBlock()),
			`league_test R1M9 P01: budget_stop at move 1: the player budget was spent: the model was not asked`},
		{scan.StepLimit, game{id: "R1M10", status: "DRAW", statusA: "LOST_MAX_STEPS",
			turns: []turn{moved(firstTurn, "Canyon Forest"), moved(secondTurn, "Lagoon")}},
			`league_test R1M10 P01: step_limit at move 2: 2 moves and no target: the race's steps ran out`},
		{scan.Outplayed, game{id: "R1M11", gameType: "even_odd", status: "WIN", winner: "P02",
			turns: []turn{{choice: "even", model: good}}},
			`league_test R1M11 P01: outplayed: no failure of its own: the opponent won or drew level`},
		{scan.Other, failedAtFirst("R1M12", "ERROR", model("SOMETHING_NEW", nil, "")),
			`league_test R1M12 P01: other at move 1: error type "SOMETHING_NEW"`},
	}
}

func budgetBlock() map[string]any {
	b := model("MODEL_GENERATION_ERROR", map[string]any{"exception_type": "BudgetSpent", "budget": "player"}, "")
	b["budget_spent"] = "player"
	return b
}

// Every category's hand-built game lands in it, with the line scan
// prints, and the per-model table counts each once.
func TestEveryCategory(t *testing.T) {
	var files []*protocol.MatchFile
	for _, c := range cases() {
		f := c.game.file(t)
		files = append(files, f)
		games := scan.ScanMatch(f)
		if len(games) != 1 || games[0].Category != c.want || games[0].Player != "P01" || games[0].Model != "m1" {
			t.Errorf("%s: scanned %+v, want one game of P01 in %s", c.game.id, games, c.want)
			continue
		}
		var line bytes.Buffer
		r := scan.NewReport([]string{"league_test"}, map[string][]*protocol.MatchFile{"league_test": {f}}, nil)
		if err := r.WriteGames(&line); err != nil || strings.TrimSpace(line.String()) != c.line {
			t.Errorf("%s: printed %q, want %q", c.game.id, line.String(), c.line)
		}
	}
	r := scan.NewReport([]string{"league_test"}, map[string][]*protocol.MatchFile{"league_test": files}, nil)
	if len(r.Models) != 1 || r.Models[0].Games != len(files) || r.Models[0].NotWon != len(files) {
		t.Fatalf("rows %+v, want one of %d games", r.Models, len(files))
	}
	for _, c := range scan.Categories {
		if r.Models[0].Counts[c] != 1 {
			t.Errorf("%s counted %d times, want once", c, r.Models[0].Counts[c])
		}
	}
}

// A game won, an abandoned one and a player without model moves are not
// scanned; a technical loss for not answering in time is a timeout; a
// failure the fallback answered is found but does not decide the game.
func TestWhatIsNotAGameNotWonAndTechnicalLosses(t *testing.T) {
	won := game{id: "R2M1", status: "WIN", winner: "P01", statusA: "WON", turns: []turn{{choice: "Goal", model: good}}}
	abandoned := failedAtFirst("R2M2", "ERROR", model("PROVIDER_TIMEOUT", nil, ""))
	abandoned.status = "ABANDONED"
	builtin := game{id: "R2M3", status: "WIN", winner: "P02", turns: []turn{{choice: "Lagoon"}}}
	for _, g := range []game{won, abandoned, builtin} {
		if games := scan.ScanMatch(g.file(t)); len(games) != 0 {
			t.Errorf("%s: scanned %+v, want nothing", g.id, games)
		}
	}
	late := game{id: "R2M4", status: "TECHNICAL_LOSS", winner: "P02", offenders: []string{"P01"},
		turns: []turn{{current: "Start", links: links, path: []string{"Start"}, choice: "Canyon Forest", model: good}},
		extra: []map[string]any{{"to": "player:P01", "message_type": "GAME_ERROR", "content": map[string]any{"error_code": "E001"}}}}
	games := scan.ScanMatch(late.file(t))
	if len(games) != 1 || games[0].Category != scan.Timeout || games[0].Outcome != "technical_loss" {
		t.Errorf("a technical loss by timeout scanned %+v", games)
	}
	back := turn{current: "Canyon Forest", links: []string{"Lagoon"}, path: []string{"Start", "Canyon Forest"}, choice: "Start",
		model: model("MODEL_INVALID_LINK", map[string]any{"requested_page": "Start"}, "")}
	goBack := game{id: "R2M6", status: "WIN", winner: "P02", statusA: "LOST_INVALID_MOVE", turns: []turn{back}}
	games = scan.ScanMatch(goBack.file(t))
	if len(games) != 1 || games[0].Category != scan.Loop || len(games[0].Findings) != 1 {
		t.Errorf("asking to go back to a page no longer linked scanned %+v", games)
	}
	fell := model("PROVIDER_API_ERROR", map[string]any{"exception_type": "InternalServerError"}, "")
	fell["fallback"] = true
	tr := firstTurn
	tr.choice, tr.model = "Canyon Forest", fell
	fallback := game{id: "R2M5", status: "DRAW", statusA: "LOST_MAX_STEPS", turns: []turn{tr}}
	games = scan.ScanMatch(fallback.file(t))
	if len(games) != 1 || games[0].Category != scan.StepLimit || games[0].Findings[0].Category != scan.ProviderError ||
		!strings.Contains(games[0].Findings[0].Detail, "fallback") {
		t.Errorf("a fallback's race scanned %+v", games)
	}
}

// The scan reads a data folder's match files in round then match order,
// and names a file it cannot read rather than skipping it.
func TestReadLeague(t *testing.T) {
	dir := t.TempDir()
	matches := filepath.Join(dir, "matches", "league_test")
	if err := os.MkdirAll(matches, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases()[:3] {
		raw, err := json.Marshal(c.game.file(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(matches, c.game.id+".json"), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(matches, "R9M9.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, problems, err := scan.ReadLeague(dir, "league_test")
	if err != nil || len(files) != 3 || len(problems) != 1 || !strings.Contains(problems[0], "R9M9.json") {
		t.Fatalf("read %d files, problems %v, err %v", len(files), problems, err)
	}
	for i, id := range []string{"R1M1", "R1M2", "R1M3"} {
		if files[i].MatchID != id {
			t.Errorf("file %d is %s, want %s", i, files[i].MatchID, id)
		}
	}
	var csv bytes.Buffer
	r := scan.NewReport([]string{"league_test"}, map[string][]*protocol.MatchFile{"league_test": files}, problems)
	if err := r.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if lines[0] != strings.Join(scan.CSVHead, ",") || len(lines) != 1+3 {
		t.Errorf("csv:\n%s", csv.String())
	}
}

// An ask the player asked again after (rethinks) is found in its category
// but does not decide the game; the player's harness is in its row.
func TestRethoughtAsksAndHarness(t *testing.T) {
	block := model("", nil, `tool call: navigate {"page":"Canyon Forest"}`)
	block["rethinks"], block["harness"] = 1, map[string]any{"temperature": 0.2}
	block["asks"] = []map[string]any{
		{"input_tokens": 120, "output_tokens": 12, "error_type": "MODEL_INVALID_LINK",
			"reply": `tool call: navigate {"page":"Canyon Forrest"}`, "feedback": "no link"},
		{"input_tokens": 120, "output_tokens": 12}}
	tr := firstTurn
	tr.choice, tr.model = "Canyon Forest", block
	f := game{id: "R3M1", status: "DRAW", statusA: "LOST_MAX_STEPS", turns: []turn{tr}}.file(t)
	games := scan.ScanMatch(f)
	if len(games) != 1 || games[0].Category != scan.StepLimit || len(games[0].Findings) != 2 ||
		games[0].Findings[0].Category != scan.NearMiss || !games[0].Findings[0].Rethought {
		t.Fatalf("scanned %+v", games)
	}
	r := scan.NewReport([]string{"league_test"}, map[string][]*protocol.MatchFile{"league_test": {f}}, nil)
	if len(r.Models) != 1 || r.Models[0].Label() != "P01 openai/m1 (temperature 0.2)" {
		t.Errorf("rows %+v", r.Models)
	}
}
