package llm_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// A reply whose usage no model could have spent (math.MaxInt64 tokens, or
// a negative count) is refused as an answer that cannot be read: the move
// fails as MODEL_GENERATION_ERROR (ImpossibleUsage) and counts nothing,
// and the next move asks the provider again and plays, from both APIs.
func TestImpossibleUsageIsRefused(t *testing.T) {
	for _, provider := range llm.APIs {
		t.Run(provider, func(t *testing.T) {
			fake := fakellm.Start(fakellm.HugeUsage, fakellm.NegativeUsage, fakellm.Good)
			defer fake.Close()
			m := modelFor(t, provider, fake)
			for i, answer := range []fakellm.Answer{fakellm.HugeUsage, fakellm.NegativeUsage} {
				r := m.Ask(t.Context(), parityTurn(5*time.Second)).Report
				if r.ErrorType != engine.ErrorGeneration || r.Metadata["exception_type"] != llm.ImpossibleUsage ||
					r.InputTokens != 0 || r.OutputTokens != 0 || len(fake.Requests()) != i+1 {
					t.Errorf("%s: report %+v after %d requests; want ImpossibleUsage, no tokens, one request", answer, r, len(fake.Requests()))
				}
				if _, err := json.Marshal(r); err != nil {
					t.Errorf("%s: the report does not encode: %v", answer, err)
				}
			}
			move := m.Ask(t.Context(), parityTurn(5*time.Second))
			if move.Choice != "even" || move.Report.InputTokens != fakellm.InputTokens || len(fake.Requests()) != 3 {
				t.Errorf("the move after them: %+v after %d requests", move, len(fake.Requests()))
			}
		})
	}
}

// Replies that say they cost the most a reply may (llm.MaxUsageTokens in
// and out) at the dearest price a player may give (config.
// MaxPricePerMillion) reach the player's and the league's budgets, in
// tokens and in money, at the move they should, with every cost a finite
// number; then no request reaches the provider.
func TestBudgetsReachedAtTheBounds(t *testing.T) {
	const perMove = 2 * llm.MaxUsageTokens // tokens
	perMoveUSD := 2 * float64(llm.MaxUsageTokens) * config.MaxPricePerMillion / 1e6
	dear := config.Price{InputPerMillion: config.MaxPricePerMillion, OutputPerMillion: config.MaxPricePerMillion, Set: true}
	for name, budgets := range map[string][2]llm.Budget{
		"player tokens": {{Tokens: 5 * perMove}, {}},
		"player usd":    {{USD: 5 * perMoveUSD}, {}},
		"league tokens": {{}, {Tokens: 5 * perMove}},
		"league usd":    {{}, {USD: 5 * perMoveUSD}},
	} {
		t.Run(name, func(t *testing.T) {
			fake := fakellm.Start(fakellm.MaxUsage)
			defer fake.Close()
			m, err := llm.New(config.LLM{Provider: "openai", Model: "fake", BaseURL: fake.OpenAIURL()},
				llm.Options{Player: "P01", Price: dear, Budget: budgets[0], LeagueBudget: budgets[1], DataDir: t.TempDir(), LeagueID: "l"})
			if err != nil {
				t.Fatal(err)
			}
			for n := 1; n <= 6; n++ {
				r := m.Ask(t.Context(), parityTurn(5*time.Second)).Report
				if n <= 5 && (r.ErrorType != "" || r.InputTokens != llm.MaxUsageTokens || r.CostUSD == nil ||
					math.IsInf(*r.CostUSD, 0) || *r.CostUSD != perMoveUSD) {
					t.Fatalf("move %d: %+v", n, r)
				}
				if n == 6 && (r.BudgetSpent == "" || r.Metadata["exception_type"] != llm.BudgetSpent) {
					t.Fatalf("move 6, past the budget: %+v", r)
				}
				if _, err := json.Marshal(r); err != nil {
					t.Fatalf("move %d does not encode: %v", n, err)
				}
			}
			if got := len(fake.Requests()); got != 5 {
				t.Errorf("%d requests, want 5", got)
			}
		})
	}
}

// A league's ledger whose lines say impossible things (math.MaxInt64
// tokens twice over, costs whose sum is past the largest float64,
// negative counts) adds up to a spent budget, never to a count that
// wrapped negative or to +Inf.
func TestLedgerSumsSaturate(t *testing.T) {
	dir := t.TempDir()
	path := llm.LedgerPath(dir, "l")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	lines := fmt.Sprintf(`{"player":"a","input_tokens":%d,"output_tokens":%d,"cost_usd":1e308}
{"player":"b","input_tokens":%d,"output_tokens":0,"cost_usd":1.7e308}
{"player":"c","input_tokens":-5,"output_tokens":-5,"cost_usd":-1e308}
`, int64(math.MaxInt64), int64(math.MaxInt64), int64(math.MaxInt64))
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, budget := range []llm.Budget{{Tokens: math.MaxInt64}, {USD: math.MaxFloat64}} {
		spent, usd, tokens, err := llm.LeagueSpent(dir, "l", budget)
		if err != nil || !spent || tokens != math.MaxInt64 || usd != math.MaxFloat64 {
			t.Errorf("budget %+v: spent %v, %g USD, %d tokens, %v; want spent at the largest counts", budget, spent, usd, tokens, err)
		}
	}
}

// A price that is not a number from 0 to config.MaxPricePerMillion is
// refused when the model is built.
func TestModelRefusesABadPrice(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 2 * config.MaxPricePerMillion} {
		_, err := llm.New(config.LLM{Provider: "openai", Model: "fake", BaseURL: "http://127.0.0.1:1/v1"},
			llm.Options{Price: config.Price{InputPerMillion: 1, OutputPerMillion: v, Set: true}})
		if err == nil || !strings.Contains(err.Error(), "openai/fake") {
			t.Errorf("price %g: %v, want it refused naming the model", v, err)
		}
	}
}

// hostileKey is a key made of what encodings change: markup, a quote, a
// backslash, a space.
const hostileKey = `sk-echo<b>&"quoted"\back slash/0123456789`

// leaks names the spelling of the key that raw holds, "" when none: in
// its bytes, or in any string it holds as JSON, a JSON string in it
// decoded again, at any depth.
func leaks(raw []byte, forms []string) string {
	for _, f := range forms {
		if strings.Contains(string(raw), f) {
			return f
		}
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return leaksIn(v, forms)
}

func leaksIn(v any, forms []string) string {
	switch x := v.(type) {
	case string:
		return leaks([]byte(x), forms)
	case map[string]any:
		for k, sub := range x {
			if f := leaks([]byte(k), forms); f != "" {
				return f
			}
			if f := leaksIn(sub, forms); f != "" {
				return f
			}
		}
	case []any:
		for _, sub := range x {
			if f := leaksIn(sub, forms); f != "" {
				return f
			}
		}
	}
	return ""
}

// A provider that echoes the key, in every spelling, into its text and as
// the move leaves no spelling of it in the move's report (what the match
// file and the report keep, also as JSON) nor in the record, from both
// APIs and both games; what it said is there, blanked.
func TestEchoedKeyIsBlanked(t *testing.T) {
	forms := fakellm.KeyEncodings(hostileKey)
	for _, provider := range llm.APIs {
		for game, turn := range map[string]func(time.Duration) llm.Turn{"even_odd": parityTurn, "link_race": raceTurn} {
			t.Run(provider+"/"+game, func(t *testing.T) {
				fake := fakellm.Start(fakellm.EchoKey)
				defer fake.Close()
				t.Setenv("LLM_TEST_KEY", hostileKey)
				base := fake.URL
				if provider == "openai" {
					base = fake.OpenAIURL()
				}
				dir := t.TempDir()
				m, err := llm.New(config.LLM{Provider: provider, Model: "fake", BaseURL: base, APIKeyEnv: "LLM_TEST_KEY", RecordDir: dir},
					llm.Options{Player: "P01"})
				if err != nil {
					t.Fatal(err)
				}
				move := m.Ask(t.Context(), turn(5*time.Second))
				if reqs := fake.Requests(); len(reqs) != 1 || reqs[0].Key != hostileKey {
					t.Fatalf("the fake got %+v", reqs)
				}
				report, err := json.Marshal(move.Report)
				if err != nil {
					t.Fatal(err)
				}
				if f := leaks(report, forms); f != "" || strings.Contains(move.Choice, hostileKey) {
					t.Errorf("the report holds the key as %q:\n%s", f, report)
				}
				if move.Report.Reasoning == nil || !strings.Contains(move.Report.Reasoning.Reply, "Your key is "+llm.Blanked) {
					t.Errorf("the reasoning does not say what the provider said, blanked: %+v", move.Report.Reasoning)
				}
				files := 0
				err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					files++
					raw, err := os.ReadFile(path)
					if f := leaks(raw, forms); f != "" {
						t.Errorf("%s holds the key as %q:\n%s", path, f, raw)
					}
					return err
				})
				if err != nil || files != 1 {
					t.Fatalf("%d record files, %v", files, err)
				}
			})
		}
	}
}

// A record whose reply is 60 MB, more than --llm-reply-bytes lets a live
// reply be, is refused as the live one is (MODEL_GENERATION_ERROR,
// ReplyTooLarge), without the replay reading the file whole; a reply over
// the cap but short of that is refused too, after it is read.
func TestReplayedReplyIsCappedAsALiveOne(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	dir := t.TempDir()
	if first := recordedModel(t, "openai", fake.OpenAIURL(), dir, false).Ask(t.Context(), parityTurn(5*time.Second)); first.Choice != "even" {
		t.Fatalf("recorded move %+v", first)
	}
	fake.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "P01", "*.json"))
	if len(files) != 1 {
		t.Fatalf("%d record files", len(files))
	}
	recorded, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	const limit = 256 << 10 // --llm-reply-bytes of the replay
	for _, size := range []int{60 << 20, limit + 1024} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			writeRecordWithReplyOf(t, files[0], recorded, size)
			t.Setenv("LLM_TEST_KEY", testKey)
			m, err := llm.New(config.LLM{Provider: "openai", Model: "fake", BaseURL: fake.OpenAIURL(), APIKeyEnv: "LLM_TEST_KEY",
				ReplayDir: dir, ReplyBytes: limit}, llm.Options{Player: "P01"})
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r := m.Ask(t.Context(), parityTurn(5*time.Second)).Report
			runtime.ReadMemStats(&after)
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("a reply of %d bytes replayed: %+v, %d MB allocated", size, r.Metadata, allocated>>20)
			if r.ErrorType != engine.ErrorGeneration || r.Metadata["exception_type"] != "ReplyTooLarge" {
				t.Errorf("a replayed reply of %d bytes: %+v; want ReplyTooLarge", size, r)
			}
			if allocated > 32<<20 {
				t.Errorf("the replay allocated %d MB for a record of %d MB: it read it whole", allocated>>20, size>>20)
			}
		})
	}
}

// writeRecordWithReplyOf rewrites the record file at path, recorded
// holding its request, with one reply whose body is a chat completion of
// size bytes, streamed to the file.
func writeRecordWithReplyOf(t *testing.T, path string, recorded []byte, size int) {
	t.Helper()
	var ex struct {
		Key     string          `json:"key"`
		Request json.RawMessage `json:"request"`
	}
	if err := json.Unmarshal(recorded, &ex); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, `{"key": %q, "request": %s, "replies": [{"status": 200, "headers": {"Content-Type": "application/json"}, "body": `+
		`{"id": "x", "object": "chat.completion", "model": "fake", "choices": [{"index": 0, "message": {"role": "assistant", "content": "`,
		ex.Key, ex.Request)
	chunk := strings.Repeat("x", 64<<10)
	for written := 0; written < size; written += len(chunk) {
		w.WriteString(chunk)
	}
	w.WriteString(`"}}]}}]}` + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// docs/games.md says the usage bound a reply is checked against.
func TestUsageBoundInTheDocs(t *testing.T) {
	page, err := os.ReadFile("../../docs/games.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("more than %d input or output tokens", llm.MaxUsageTokens); !strings.Contains(string(page), want) {
		t.Errorf("docs/games.md does not say %q", want)
	}
}
