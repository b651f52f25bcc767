package llm_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
	"github.com/leaguetui/leaguetui/league/report"
)

// The price the test's table gives the fake model, USD per million tokens.
const (
	inputPrice  = 3.0
	outputPrice = 15.0
)

// usd is the test's own estimate: tokens at the table's price.
func usd(in, out int64) float64 { return (float64(in)*inputPrice + float64(out)*outputPrice) / 1e6 }

// near: two estimates agree to far below what any view prints.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// viewMoney reads a money figure as the views print it ("~$0.000432").
func viewMoney(t *testing.T, text string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimPrefix(text, "~$"), 64)
	if err != nil || !strings.HasPrefix(text, "~$") {
		t.Fatalf("%q is no money figure", text)
	}
	return v
}

// Two model players priced by the config folder's prices.json and one
// unpriced random player: every view that shows tokens shows their money,
// tokens × price: each move in the match files, each match and the
// player in history.json, each player and the league under --no-ui's
// standings, and the report's CSV and page.
func TestMoneyIsTokensAtThePriceInEveryView(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	t.Setenv("OPENAI_API_KEY", testKey)
	cfgDir := t.TempDir()
	prices := `{"prices": {"openai/fake": {"input_per_million": 3, "output_per_million": 15}}}`
	if err := os.WriteFile(filepath.Join(cfgDir, "prices.json"), []byte(prices), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	matches, stdout := runLeague(t, dir, "--config", cfgDir, "--players", "3", "--strategies", "llm,llm,random",
		"--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL())

	tokens := map[string][2]int64{}
	for _, m := range matches {
		for _, r := range modelMoneyReplies(t, m) {
			if r.Price == nil || r.Price.InputPerMillion != inputPrice || r.Price.OutputPerMillion != outputPrice ||
				r.CostUSD == nil || !near(*r.CostUSD, usd(r.InputTokens, r.OutputTokens)) {
				t.Errorf("%s: %s's move: price %+v, cost %v for %d/%d tokens", m.MatchID, r.Player, r.Price, r.CostUSD, r.InputTokens, r.OutputTokens)
			}
			tk := tokens[r.Player]
			tokens[r.Player] = [2]int64{tk[0] + r.InputTokens, tk[1] + r.OutputTokens}
			// Beside the move, why: the prompt as sent and the model's reply.
			if rs := r.Reasoning; rs == nil || !strings.Contains(rs.Prompt, "You play even/odd against the player") ||
				!strings.Contains(rs.Prompt, "system: ") || !strings.Contains(rs.Reply, `tool call: choose_parity {"parity":"even"}`) {
				t.Errorf("%s: %s's move without its reasoning: %+v", m.MatchID, r.Player, r.Reasoning)
			}
		}
	}
	if len(tokens) != 2 {
		t.Fatalf("model moves of %d players in the match files, want P01 and P02", len(tokens))
	}
	var league float64
	for player, tk := range tokens {
		want := usd(tk[0], tk[1])
		league += want
		checkHistoryMoney(t, dir, player, want)
		line := tableLine(t, stdout, player)
		if got := viewMoney(t, line[len(line)-1]); !near(got, roundTo(want, 6)) {
			t.Errorf("%s under the standings: %v, want %v", player, line, want)
		}
	}
	wantLine := "league spend, estimated from the price table: ~$" + strconv.FormatFloat(league, 'f', 6, 64)
	if !strings.Contains(stdout, wantLine) {
		t.Errorf("no %q under the standings:\n%s", wantLine, stdout)
	}
	checkReportMoney(t, dir, tokens, league)
	checkJSONMoney(t, cfgDir, fake.OpenAIURL())
}

// checkJSONMoney: --json's standings line gives each model player's money,
// its tokens at the price, and the league's spend.
func checkJSONMoney(t *testing.T, cfgDir, base string) {
	t.Helper()
	_, stdout := runLeague(t, t.TempDir(), "--config", cfgDir, "--players", "3", "--strategies", "llm,llm,random",
		"--llm-provider", "openai", "--llm-base-url", base, "--json")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var last struct {
		Kind       string `json:"kind"`
		ModelCosts map[string]struct {
			InputTokens  int64    `json:"input_tokens"`
			OutputTokens int64    `json:"output_tokens"`
			CostUSD      *float64 `json:"cost_usd"`
		} `json:"model_costs"`
		ModelSpendUSD *float64 `json:"model_spend_usd"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Kind != "standings" {
		t.Fatalf("--json's last line %q: %v", lines[len(lines)-1], err)
	}
	var league float64
	for player, c := range last.ModelCosts {
		want := usd(c.InputTokens, c.OutputTokens)
		league += want
		if c.CostUSD == nil || !near(*c.CostUSD, want) || c.InputTokens == 0 {
			t.Errorf("--json: %s costs %v for %d/%d tokens, want %v", player, c.CostUSD, c.InputTokens, c.OutputTokens, want)
		}
	}
	if len(last.ModelCosts) != 2 || last.ModelSpendUSD == nil || !near(*last.ModelSpendUSD, league) {
		t.Errorf("--json: %d model players, league spend %v, want %v", len(last.ModelCosts), last.ModelSpendUSD, league)
	}
}

// roundTo rounds as the views print: decimals places.
func roundTo(v float64, decimals int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64)
	return r
}

// pricedReply is a move's model block with its money.
type pricedReply struct {
	modelReply
	Price *struct {
		InputPerMillion  float64 `json:"input_per_million"`
		OutputPerMillion float64 `json:"output_per_million"`
	} `json:"price"`
	CostUSD   *float64 `json:"cost_usd"`
	Reasoning *struct {
		Prompt string `json:"prompt"`
		Reply  string `json:"reply"`
	} `json:"reasoning"`
}

func modelMoneyReplies(t *testing.T, m match) []pricedReply {
	t.Helper()
	var out []pricedReply
	for _, e := range m.Transcript {
		if _, ok := e.Content["model"]; !ok {
			continue
		}
		var r pricedReply
		raw, _ := json.Marshal(e.Content["model"])
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("%s: model block %s: %v", m.MatchID, raw, err)
		}
		r.Player, _ = e.Content["player_id"].(string)
		out = append(out, r)
	}
	return out
}

// checkHistoryMoney: each match's cost in the player's history is its
// tokens at the price, and so is the player's total.
func checkHistoryMoney(t *testing.T, dir, player string, want float64) {
	t.Helper()
	var h struct {
		Stats struct {
			Model *struct {
				InputTokens  int64    `json:"input_tokens"`
				OutputTokens int64    `json:"output_tokens"`
				CostUSD      *float64 `json:"cost_usd"`
			} `json:"model"`
		} `json:"stats"`
		Matches []struct {
			Model *struct {
				InputTokens  int64    `json:"input_tokens"`
				OutputTokens int64    `json:"output_tokens"`
				CostUSD      *float64 `json:"cost_usd"`
			} `json:"model"`
		} `json:"matches"`
	}
	leaguetest.ReadJSON(t, filepath.Join(dir, "players", player, "history.json"), &h)
	for i, m := range h.Matches {
		if m.Model == nil || m.Model.CostUSD == nil || !near(*m.Model.CostUSD, usd(m.Model.InputTokens, m.Model.OutputTokens)) {
			t.Errorf("%s's history, match %d: %+v", player, i, m.Model)
		}
	}
	if s := h.Stats.Model; s == nil || s.CostUSD == nil || !near(*s.CostUSD, want) || !near(*s.CostUSD, usd(s.InputTokens, s.OutputTokens)) {
		t.Errorf("%s's history stats: %+v, want %v", player, s, want)
	}
}

// tableLine is the player's line of the model table under the standings.
func tableLine(t *testing.T, stdout, player string) []string {
	t.Helper()
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) == 10 && f[0] == player && strings.Contains(f[1], "/") {
			return f
		}
	}
	t.Fatalf("no model line for %s under the standings:\n%s", player, stdout)
	return nil
}

// checkReportMoney: the report's standings.csv and page give each model
// player's money and the league's.
func checkReportMoney(t *testing.T, dir string, tokens map[string][2]int64, league float64) {
	t.Helper()
	out := t.TempDir()
	run := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, "report", dir, "--out", out)
	if run.Err != nil {
		t.Fatalf("leaguetui report: %v\n%s", run.Err, run.Stderr)
	}
	raw, err := os.ReadFile(filepath.Join(out, report.StandingsCSV))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("standings.csv: %v, %d rows", err, len(rows))
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, row := range rows[1:] {
		player, cost := row[col["player_id"]], row[col["est_cost_usd"]]
		tk, model := tokens[player]
		if !model {
			if cost != "" {
				t.Errorf("standings.csv: %s, no model player, costs %q", player, cost)
			}
			continue
		}
		got, err := strconv.ParseFloat(cost, 64)
		if err != nil || !near(got, roundTo(usd(tk[0], tk[1]), 9)) {
			t.Errorf("standings.csv: %s costs %q, want %v", player, cost, usd(tk[0], tk[1]))
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := "League spend, estimated from the price table: ~$" + strconv.FormatFloat(league, 'f', 6, 64)
	if !strings.Contains(string(page), want) {
		t.Errorf("the report's page lacks %q", want)
	}
	// What a point cost each model player: its money over its points.
	var standings struct {
		Standings []struct {
			PlayerID string `json:"player_id"`
			Points   int    `json:"points"`
		} `json:"standings"`
	}
	leaguetest.ReadJSON(t, filepath.Join(dir, "leagues", leagueID, "standings.json"), &standings)
	for _, r := range standings.Standings {
		tk, model := tokens[r.PlayerID]
		if !model || r.Points == 0 {
			continue
		}
		perPoint := "~$" + strconv.FormatFloat(usd(tk[0], tk[1])/float64(r.Points), 'f', 6, 64)
		if !strings.Contains(string(page), "<td class=\"n\">"+perPoint+"</td>") {
			t.Errorf("the report's page lacks %s's cost per point %s", r.PlayerID, perPoint)
		}
	}
	// Each model move's reasoning, folded beside it, escaped.
	reasoning := `<details class="reasoning"><summary>reasoning</summary><p>prompt</p><pre>system: `
	if n := strings.Count(string(page), reasoning); n != len(tokens)*2 || !strings.Contains(string(page), "against the player &#34;P0") {
		t.Errorf("the report's page holds %d reasonings, want %d, escaped", n, len(tokens)*2)
	}
}

// A model player's token budget, spent, turns its further moves into the
// fallback's, marked as spent in the match files, its history and under
// the standings, and the league goes on to its end.
func TestPlayerBudgetSpentInALeague(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	t.Setenv("OPENAI_API_KEY", testKey)
	dir := t.TempDir()
	// 200 tokens: two moves of 132 tokens pass it; later moves are not asked.
	matches, stdout := runLeague(t, dir, "--players", "3", "--strategies", "llm,random,random", "--games-per-pair", "2",
		"--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--llm-budget-tokens", "200", "--llm-fallback", "random",
		"--referees", "1", "--suspend-after", "0")
	asked, refused := 0, 0
	for _, m := range matches {
		for _, r := range modelReplies(t, m) {
			if r.ErrorType == "" {
				asked++
				continue
			}
			if r.Metadata["exception_type"] != "BudgetSpent" || !r.Fallback || r.InputTokens != 0 {
				t.Errorf("%s: a move past the budget: %+v", m.MatchID, r)
			}
			refused++
		}
	}
	// Two asked in turn reach the budget; the referee's two matches at once
	// may put a third in flight.
	if asked < 2 || asked > 3 || refused != 4-asked || len(fake.Requests()) != asked {
		t.Errorf("%d moves asked, %d refused, %d requests; want 2 or 3 asked of 4", asked, refused, len(fake.Requests()))
	}
	var h struct {
		Stats struct {
			Model *struct {
				BudgetSpent string `json:"budget_spent"`
			} `json:"model"`
		} `json:"stats"`
	}
	leaguetest.ReadJSON(t, filepath.Join(dir, "players", "P01", "history.json"), &h)
	if h.Stats.Model == nil || h.Stats.Model.BudgetSpent != "player" {
		t.Errorf("P01's history stats: %+v", h.Stats.Model)
	}
	if !strings.Contains(stdout, "(player budget spent)") {
		t.Errorf("no spent budget under the standings:\n%s", stdout)
	}
}

// The league's token budget, spent, stops the league: --no-ui says why,
// the league ends before its last match, and the ledger of the data
// folder holds what was spent, past the budget by at most the calls in
// flight (two matches at once: two calls).
func TestLeagueBudgetStopsTheLeague(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	t.Setenv("OPENAI_API_KEY", testKey)
	dir := t.TempDir()
	const budget = 400
	args := []string{"--no-ui", "--free-ports", "--data", dir, "--seed", "3", "--referees", "1", "--move-timeout", "3s",
		"--join-timeout", "5s", "--retry-delay", "50ms", "--llm-model", "fake", "--players", "4", "--strategies", "llm,random",
		"--games-per-pair", "10", "--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--suspend-after", "0",
		"--league-budget-tokens", fmt.Sprint(budget), "--llm-fallback", "random"}
	run := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, args...)
	if run.Err == nil || !strings.Contains(run.Stderr, "the league's model budget is spent") || !strings.Contains(run.Stderr, "stopping the league") {
		t.Fatalf("leaguetui: %v\n%s", run.Err, run.Stderr)
	}
	matches := leaguetest.ReadMatchFiles[match](t, dir, leagueID)
	if len(matches) >= 60 {
		t.Errorf("%d of 60 matches played after the budget was spent", len(matches))
	}
	raw, err := os.ReadFile(filepath.Join(dir, "models", leagueID, "spend.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var spent int64
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var e struct {
			InputTokens  int64 `json:"input_tokens"`
			OutputTokens int64 `json:"output_tokens"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("ledger line %q: %v", line, err)
		}
		spent += e.InputTokens + e.OutputTokens
	}
	if asked := int64(len(fake.Requests())) * callTokensE2E; spent != asked || spent < budget || spent > budget+2*callTokensE2E {
		t.Errorf("the ledger holds %d tokens, the provider answered %d: want the budget of %d, passed by at most two calls", spent, asked, budget)
	}
}

const callTokensE2E = fakellm.InputTokens + fakellm.OutputTokens
