package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
)

// Budgets: what a model player may spend (its own budget) and what all
// the league's model players together may (the league's), in US dollars
// at the price table's price or in tokens. A move is asked of the model
// only while neither budget is spent; its cost is counted when its answer
// comes. So a budget is passed by at most the calls in flight when it ran
// out: each at most one move's requests (the prompt, the harness's output
// cap out, and the retries and rethinks its deadline allows; a rethink is
// asked only while no budget is spent).

// The names a spent budget goes by, in a move's budget_spent and
// /health's.
const (
	PlayerBudget = "player"
	LeagueBudget = "league"
)

// BudgetSpent is the exception type of a move not asked because a budget
// is spent.
const BudgetSpent = "BudgetSpent"

// Budget is a limit in money, tokens or both; zero is none.
type Budget struct {
	USD    float64
	Tokens int64
}

func (b Budget) set() bool { return b.USD > 0 || b.Tokens > 0 }

// spentBy: usd and tokens reach the budget.
func (b Budget) spentBy(usd float64, tokens int64) bool {
	return (b.USD > 0 && usd >= b.USD) || (b.Tokens > 0 && tokens >= b.Tokens)
}

// LeagueBudgetOf is the league's budget in the settings.
func LeagueBudgetOf(s config.LLM) Budget {
	return Budget{USD: s.LeagueBudgetUSD, Tokens: s.LeagueBudgetTokens}
}

// LeagueSpent reports whether the league's model players together have
// spent budget, by the ledger of the data folder, and what they spent.
func LeagueSpent(dataDir, leagueID string, budget Budget) (spent bool, usd float64, tokens int64, err error) {
	total, err := (&ledger{path: LedgerPath(dataDir, leagueID)}).spent()
	return budget.set() && budget.spentBy(total.usd, total.tokens), total.usd, total.tokens, err
}

// tally is what has been spent against a budget.
type tally struct {
	usd    float64
	tokens int64
}

// ledger is the league's spend, shared by every model player of the
// league through one append-only file of the data folder: a JSON line per
// move, which each player reads on from where it stopped.
type ledger struct {
	path string

	mu     sync.Mutex
	offset int64
	total  tally
}

// ledgerEntry is one line of the ledger.
type ledgerEntry struct {
	Player       string  `json:"player"`
	MatchID      string  `json:"match_id"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
}

// LedgerPath is the league's spend ledger in the data folder.
func LedgerPath(dataDir, leagueID string) string {
	return filepath.Join(dataDir, "models", leagueID, "spend.jsonl")
}

func openLedger(path string) (*ledger, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("the league's model spend: %w", err)
	}
	return &ledger{path: path}, nil
}

// spent reads the lines other players added since the last read and
// returns the league's total.
func (l *ledger) spent() (tally, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.Open(l.path)
	if os.IsNotExist(err) {
		return l.total, nil
	}
	if err != nil {
		return l.total, err
	}
	defer f.Close()
	if _, err := f.Seek(l.offset, io.SeekStart); err != nil {
		return l.total, err
	}
	fresh, err := io.ReadAll(f)
	if err != nil {
		return l.total, err
	}
	whole := bytes.LastIndexByte(fresh, '\n') + 1 // a line still being written is read next time
	for _, line := range bytes.Split(fresh[:whole], []byte("\n")) {
		var e ledgerEntry
		// A line with a negative count is no move's: it would take spend
		// back.
		if json.Unmarshal(line, &e) == nil && e.InputTokens >= 0 && e.OutputTokens >= 0 && e.CostUSD >= 0 {
			l.total.usd = addUSD(l.total.usd, e.CostUSD)
			l.total.tokens = protocol.AddCount(l.total.tokens, protocol.AddCount(e.InputTokens, e.OutputTokens))
		}
	}
	l.offset += int64(whole)
	return l.total, nil
}

// add appends one move's spend: a single write to a file opened for
// appending, which the other players' writes never interleave with.
func (l *ledger) add(e ledgerEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	return joinClose(err, f)
}

func joinClose(err error, f *os.File) error {
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	return err
}

// addUSD is a+b for amounts that are not negative, saturating at the
// largest float64, so a sum is never +Inf (which no JSON can hold); a
// NaN or a negative b adds nothing.
func addUSD(a, b float64) float64 {
	if !(b > 0) {
		return a
	}
	return min(a+b, math.MaxFloat64)
}
