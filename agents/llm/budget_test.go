package llm_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// callTokens is what one of the fake's answers costs.
const callTokens = fakellm.InputTokens + fakellm.OutputTokens

// budgetModel is a model of the fake with budgets, counting the league's
// spend in dataDir.
func budgetModel(t *testing.T, fake *fakellm.Server, name, dataDir string, own, league llm.Budget) *llm.Model {
	t.Helper()
	m, err := llm.New(config.LLM{Provider: "openai", Model: "fake", BaseURL: fake.OpenAIURL()},
		llm.Options{Player: name, Price: config.Price{InputPerMillion: 3, OutputPerMillion: 15, Set: true},
			Budget: own, LeagueBudget: league, DataDir: dataDir, LeagueID: "league_budget"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// askAll asks each model for moves of its own matches, workers at once
// per model, and returns the moves not asked because a budget was spent.
func askAll(t *testing.T, models []*llm.Model, workers, moves int) (refused map[string]int) {
	t.Helper()
	var mu sync.Mutex
	refused = map[string]int{}
	var wg sync.WaitGroup
	for i, m := range models {
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := range moves {
					turn := parityTurn(10 * time.Second)
					turn.MatchID = fmt.Sprintf("M%d-%d-%d", i, w, n)
					move := m.Ask(t.Context(), turn)
					if which := move.Report.BudgetSpent; which != "" {
						if move.Report.ErrorType != engine.ErrorGeneration || move.Report.Metadata["exception_type"] != llm.BudgetSpent ||
							move.Report.InputTokens != 0 {
							t.Errorf("a move refused by the %s budget: %+v", which, move.Report)
						}
						mu.Lock()
						refused[which]++
						mu.Unlock()
					}
				}
			}()
		}
	}
	wg.Wait()
	return refused
}

// A player's token budget, asked from eight matches at once, is passed by
// at most the eight calls in flight when it ran out; then no more
// requests reach the provider.
func TestPlayerBudgetUnderConcurrency(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	const budget, workers = 1000, 8
	m := budgetModel(t, fake, "P01", t.TempDir(), llm.Budget{Tokens: budget}, llm.Budget{})
	refused := askAll(t, []*llm.Model{m}, workers, 6)
	spent := len(fake.Requests()) * callTokens
	t.Logf("budget %d tokens, spent %d (%d requests), %d moves refused", budget, spent, len(fake.Requests()), refused[llm.PlayerBudget])
	if spent < budget || spent > budget+workers*callTokens {
		t.Errorf("spent %d tokens of a budget of %d: want at least the budget, at most %d calls of %d past it", spent, budget, workers, callTokens)
	}
	if refused[llm.PlayerBudget] == 0 || refused[llm.LeagueBudget] != 0 {
		t.Errorf("moves refused: %v", refused)
	}
	if which, _ := m.BudgetSpent(); which != llm.PlayerBudget {
		t.Errorf("the model says its budget spent is %q", which)
	}
}

// The league's money budget, shared by three model players each asked
// from four matches at once through the ledger of the data folder, is
// passed by at most the twelve calls in flight when it ran out.
func TestLeagueBudgetAcrossPlayers(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	dataDir := t.TempDir()
	const budgetUSD, workers, players = 0.01, 4, 3
	callUSD := (fakellm.InputTokens*3.0 + fakellm.OutputTokens*15.0) / 1e6
	var models []*llm.Model
	for i := range players {
		models = append(models, budgetModel(t, fake, fmt.Sprintf("P0%d", i+1), dataDir, llm.Budget{}, llm.Budget{USD: budgetUSD}))
	}
	refused := askAll(t, models, workers, 10)
	spent := float64(len(fake.Requests())) * callUSD
	t.Logf("league budget $%.4f, spent $%.6f (%d requests), %d moves refused", budgetUSD, spent, len(fake.Requests()), refused[llm.LeagueBudget])
	if spent < budgetUSD || spent > budgetUSD+players*workers*callUSD {
		t.Errorf("spent $%.6f of $%.4f: want at least the budget, at most %d calls past it", spent, budgetUSD, players*workers)
	}
	if refused[llm.LeagueBudget] == 0 {
		t.Errorf("moves refused: %v", refused)
	}
	// A model player started after the budget ran out asks nothing.
	late := budgetModel(t, fake, "P09", dataDir, llm.Budget{}, llm.Budget{USD: budgetUSD})
	before := len(fake.Requests())
	if move := late.Ask(t.Context(), parityTurn(5*time.Second)); move.Report.BudgetSpent != llm.LeagueBudget || len(fake.Requests()) != before {
		t.Errorf("a late player's move %+v; %d requests more", move.Report, len(fake.Requests())-before)
	}
}

// A budget in money needs the model's price.
func TestMoneyBudgetNeedsAPrice(t *testing.T) {
	_, err := llm.New(config.LLM{Provider: "openai", Model: "unpriced"}, llm.Options{Budget: llm.Budget{USD: 1}})
	if err == nil {
		t.Error("a money budget without a price was taken")
	}
}

// Before anything starts, a budget in money is refused for a model with
// no price, and taken for one the table or the player prices.
func TestCheckInWantsAPriceForAMoneyBudget(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-budget-test")
	cfg := config.Default()
	for _, c := range []struct {
		s      config.LLM
		league float64
		ok     bool
	}{
		{config.LLM{Model: "unpriced", BudgetUSD: 1}, 0, false},
		{config.LLM{Model: "unpriced"}, 1, false},
		{config.LLM{Model: "unpriced", BudgetTokens: 1000}, 0, true},
		{config.LLM{Model: "gpt-4o-mini", BudgetUSD: 1}, 0, true},
		{config.LLM{Model: "unpriced", Price: config.Price{Set: true}}, 1, true},
	} {
		cfg.Player.LLM.LeagueBudgetUSD = c.league
		if err := llm.CheckIn(cfg, c.s); (err == nil) != c.ok {
			t.Errorf("CheckIn(%+v, league $%v) = %v", c.s, c.league, err)
		}
	}
}

// Before anything starts, a model player whose key cannot be read is
// refused, naming the variable or the file; one that needs no key is not.
func TestCheckInWantsTheKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("LEAGUETUI_TEST_KEY", "")
	dir := t.TempDir()
	empty, full := filepath.Join(dir, "empty"), filepath.Join(dir, "full")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte("sk-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s    config.LLM
		want string // in the refusal; "" when taken
	}{
		{config.LLM{Model: "m"}, "OPENAI_API_KEY is not set"},
		{config.LLM{Model: "m", Provider: "anthropic"}, "ANTHROPIC_API_KEY is not set"},
		{config.LLM{Model: "m", APIKeyEnv: "LEAGUETUI_TEST_KEY"}, "LEAGUETUI_TEST_KEY is not set"},
		{config.LLM{Model: "m", BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: "LEAGUETUI_TEST_KEY"}, "LEAGUETUI_TEST_KEY is not set"},
		{config.LLM{Model: "m", APIKeyFile: filepath.Join(dir, "missing")}, "--llm-api-key-file"},
		{config.LLM{Model: "m", APIKeyFile: empty}, "is empty"},
		{config.LLM{Model: "m", APIKeyFile: full}, ""},
		{config.LLM{Model: "m", BaseURL: "http://127.0.0.1:9/v1"}, ""},
		{config.LLM{Model: "m", ReplayDir: dir}, ""},
	} {
		err := llm.CheckIn(config.Default(), c.s)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckIn(%+v) = %v, want %q", c.s, err, c.want)
		}
	}
}
