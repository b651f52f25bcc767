package llm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// Retry tuning: retries stay inside the move's deadline.
const (
	firstBackoff = 200 * time.Millisecond
	// replyMargin is kept back from the move deadline to send the answer.
	replyMargin = 300 * time.Millisecond
	// breakerFailures in a row open a provider's circuit for breakerOpen.
	breakerFailures = 5
	breakerOpen     = 10 * time.Second
)

// Model asks one provider's model for moves. It is safe for concurrent
// use: a player asks it for the moves of several matches at once.
type Model struct {
	settings config.LLM
	price    *protocol.Price // nil: the model has no price
	backend  backend
	circuit  *circuit

	mu    sync.Mutex
	spent map[string]int64 // match id -> tokens spent in it, for MaxTokensPerMatch

	player, league Budget  // the player's own budget and the league's; zero for none
	own            tally   // what this player spent in the league, against player
	ledger         *ledger // the league's spend, against league; nil without a league budget
	name           string
	blank          *blanker // the key's spellings, blanked from every answer; nil without a key
	harness        *harness // how the model is asked (harness.go)
}

// circuit is one provider's circuit breaker and the failure that last
// counted against it: an open circuit reports that failure's type, so a
// provider that rate-limits stays PROVIDER_RATE_LIMIT while we hold off.
type circuit struct {
	breaker *gobreaker.CircuitBreaker[answer]
	last    atomic.Pointer[providerError]
}

// answer is one request's result: the move the model called (nil for
// none), what it cost, and for the move's reasoning what was asked (the
// prompt as sent) and what the model said (its text and its tool call).
type answer struct {
	call        *toolCall
	usage       usage
	asked, said string
}

// circuits holds one circuit per provider endpoint, shared by every Model
// of the process.
var circuits = struct {
	sync.Mutex
	byName map[string]*circuit
}{byName: map[string]*circuit{}}

func circuitFor(name string) *circuit {
	circuits.Lock()
	defer circuits.Unlock()
	if c, ok := circuits.byName[name]; ok {
		return c
	}
	c := &circuit{breaker: gobreaker.NewCircuitBreaker[answer](gobreaker.Settings{
		Name:        name,
		Timeout:     breakerOpen,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= breakerFailures },
		// Only the provider's failures count: a model that answers badly
		// is up.
		IsSuccessful: func(err error) bool {
			var pe *providerError
			return err == nil || (errors.As(err, &pe) && !pe.retryable())
		},
	})}
	circuits.byName[name] = c
	return c
}

// Options are what a model player adds to its llm settings.
type Options struct {
	// Price is the model's price (config.ModelPrice); unset, the model's
	// moves carry tokens and no money.
	Price config.Price
	// Player names the player's folder in a record (--record-models,
	// --replay-models) and its lines in the league's ledger.
	Player string
	// Budget is the player's own; LeagueBudget the league's, counted in
	// the ledger of DataDir shared by every model player of LeagueID.
	Budget, LeagueBudget Budget
	DataDir, LeagueID    string
}

// New checks the settings and builds the provider's client. The key is
// read here and kept only inside the client.
func New(s config.LLM, o Options) (*Model, error) {
	if s.Provider == "" {
		s.Provider = "openai"
	}
	if err := Check(s); err != nil {
		return nil, err
	}
	if o.Price.Set {
		if err := o.Price.Check(); err != nil {
			return nil, fmt.Errorf("the price of %s: %w", config.PriceKey(s.Provider, s.Model), err)
		}
	}
	key, err := apiKey(s)
	if err != nil {
		return nil, err
	}
	blank := newBlanker(key)
	client, err := replyClient(s, o, key, blank)
	if err != nil {
		return nil, err
	}
	var b backend
	if s.API() == "anthropic" {
		b = newAnthropic(s, key, client)
	} else {
		b = newOpenAI(s, key, client)
	}
	m := &Model{settings: s, backend: b, circuit: circuitFor(s.Provider + " " + s.ServerURL()), spent: map[string]int64{},
		player: o.Budget, league: o.LeagueBudget, name: o.Player, blank: blank}
	if m.harness, err = loadHarness(s.Harness); err != nil {
		return nil, err
	}
	if o.Price.Set {
		m.price = &protocol.Price{InputPerMillion: o.Price.InputPerMillion, OutputPerMillion: o.Price.OutputPerMillion}
	}
	if (o.Budget.USD > 0 || o.LeagueBudget.USD > 0) && m.price == nil {
		return nil, fmt.Errorf("a budget in US dollars needs the price of %s (--llm-price or the price table)", config.PriceKey(s.Provider, s.Model))
	}
	if o.LeagueBudget.set() {
		if m.ledger, err = openLedger(LedgerPath(o.DataDir, o.LeagueID)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Check reports what is wrong with the settings of a player that uses the
// llm strategy.
func Check(s config.LLM) error {
	switch {
	case s.Provider != "" && !slices.Contains(Providers, s.Provider):
		return fmt.Errorf("--llm-provider %q: want one of %v", s.Provider, Providers)
	case s.Model == "":
		return errors.New("the llm strategy needs a model (--llm-model)")
	case s.Fallback != "" && s.Fallback != "random":
		return fmt.Errorf("--llm-fallback %q: want random or nothing", s.Fallback)
	case s.MaxTokensPerMatch < 0:
		return fmt.Errorf("--llm-max-tokens-per-match %d: must not be negative", s.MaxTokensPerMatch)
	case s.ToolCalls != "" && !slices.Contains([]string{ToolCallsAuto, ToolCallsOn, ToolCallsOff}, s.ToolCalls):
		return fmt.Errorf("--llm-tool-calls %q: want auto, on or off", s.ToolCalls)
	case s.LeagueBudgetEnd != "" && s.LeagueBudgetEnd != "stop" && s.LeagueBudgetEnd != "pause":
		return fmt.Errorf("--league-budget-end %q: want stop or pause", s.LeagueBudgetEnd)
	case s.RecordDir != "" && s.ReplayDir != "":
		return errors.New("--record-models and --replay-models: give one of them")
	}
	if s.ReplayDir != "" {
		if info, err := os.Stat(s.ReplayDir); err != nil || !info.IsDir() {
			return fmt.Errorf("--replay-models %s: not a record folder", s.ReplayDir)
		}
	}
	if err := s.Harness.CheckFor(s.API()); err != nil {
		return err
	}
	_, err := loadHarness(s.Harness) // its files read and its template tried, before any move
	return err
}

// CheckIn is Check for a player of the league cfg sets up: besides its
// settings, a budget in money needs the model's price, from its own or
// the config folder's table.
func CheckIn(cfg config.Config, s config.LLM) error {
	if err := Check(s); err != nil {
		return err
	}
	if err := checkKey(s); err != nil {
		return err
	}
	if s.BudgetUSD <= 0 && cfg.Player.LLM.LeagueBudgetUSD <= 0 {
		return nil
	}
	price, err := config.ModelPrice(cfg.Dir, s)
	if err != nil {
		return err
	}
	if !price.Set {
		return fmt.Errorf("a budget in US dollars needs the price of %s: give --llm-price, or a price in the config folder's %s",
			config.PriceKey(s.Provider, s.Model), config.PricesFile)
	}
	return nil
}

// apiKey reads the key from the named file or the environment.
func apiKey(s config.LLM) (string, error) {
	if s.APIKeyFile != "" {
		b, err := os.ReadFile(s.APIKeyFile)
		if err != nil {
			return "", fmt.Errorf("reading the API key file: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	if keyEnv(s) == "" {
		return "", nil // a keyless preset: no variable read, no key sent
	}
	return os.Getenv(keyEnv(s)), nil
}

// keyEnv is the environment variable that holds the provider's key: ""
// for a keyless preset (config.LLM.KeyEnv).
func keyEnv(s config.LLM) string { return s.KeyEnv() }

// checkKey refuses a model player that would start without its key and
// lose every move: a key file it cannot read, or a key variable that is
// unset. A player that replays recorded answers needs none, nor one whose
// --llm-base-url names a server of its own (a local one may take no key),
// unless --llm-api-key-env names the variable all the same, nor one of a
// keyless preset (ollama, vllm). A preset with a key variable needs it
// set, whatever its base URL.
func checkKey(s config.LLM) error {
	if s.ReplayDir != "" {
		return nil
	}
	if s.APIKeyFile != "" {
		key, err := os.ReadFile(s.APIKeyFile)
		switch {
		case err != nil:
			return fmt.Errorf("--llm-api-key-file: %w", err)
		case strings.TrimSpace(string(key)) == "":
			return fmt.Errorf("--llm-api-key-file %s: the file is empty", s.APIKeyFile)
		}
		return nil
	}
	_, preset := config.PresetNamed(s.Provider)
	if keyEnv(s) == "" || os.Getenv(keyEnv(s)) != "" || (!preset && s.BaseURL != "" && s.APIKeyEnv == "") {
		return nil
	}
	return fmt.Errorf("the llm strategy's key variable %s is not set: set it, or name another with --llm-api-key-env or a file with --llm-api-key-file", keyEnv(s))
}

// Settings returns what the model was built with (no key).
func (m *Model) Settings() config.LLM { return m.settings }

// Forget drops what the model counted of a finished match.
func (m *Model) Forget(matchID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.spent, matchID)
}

// Ask asks the model for turn's move, retrying the provider's transient
// failures (honouring Retry-After) while the deadline allows. No
// spelling of the key is in the move or its report: what the provider
// said is blanked before it is cut to any cap, and the report once more
// as a whole (its metadata holds what the provider's JSON decodes to).
func (m *Model) Ask(ctx context.Context, turn Turn) Move {
	move := m.ask(ctx, turn)
	move.Choice = m.blank.blank(move.Choice)
	m.blank.blankReport(&move.Report)
	return move
}

// cost writes a move's tokens, and their money at the model's price.
func (m *Model) cost(r *protocol.ModelMove, u usage) {
	r.InputTokens, r.OutputTokens = u.in, u.out
	if m.price != nil {
		cost := m.price.Cost(u.in, u.out)
		r.Price, r.CostUSD = m.price, &cost
	}
}

// report starts a move's report with the model's name.
func (m *Model) report() (r protocol.ModelMove) {
	r.Provider, r.Model = m.settings.Provider, m.settings.Model
	if m.harness != nil {
		r.Harness = m.harness.report
	}
	return r
}

// fail names the move's failure with the seed's metadata.
func (m *Model) fail(move *Move, turn Turn, errorType string, meta map[string]any) {
	status, _ := engine.ModelErrorStatus(errorType)
	meta["provider"], meta["step"] = m.settings.Provider, turn.Step
	if turn.CurrentPage != "" {
		meta["current_page"] = turn.CurrentPage
	}
	move.Report.ErrorType, move.Report.Status, move.Report.Metadata = errorType, status, meta
}

// overBudget reports whether the match has used up MaxTokensPerMatch.
func (m *Model) overBudget(matchID string) (int64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	spent := m.spent[matchID]
	return spent, m.settings.MaxTokensPerMatch > 0 && spent >= int64(m.settings.MaxTokensPerMatch)
}

// charge counts a move's cost in its match, against the player's budget
// and in the league's ledger.
func (m *Model) charge(matchID string, r protocol.ModelMove) {
	tokens := protocol.AddCount(r.InputTokens, r.OutputTokens)
	usd := 0.0
	if r.CostUSD != nil {
		usd = *r.CostUSD
	}
	func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.spent[matchID] = protocol.AddCount(m.spent[matchID], tokens)
		m.own.usd = addUSD(m.own.usd, usd)
		m.own.tokens = protocol.AddCount(m.own.tokens, tokens)
	}()
	if m.ledger != nil && tokens > 0 {
		// A line that cannot be written leaves the league's count short;
		// the player's own budget still holds.
		_ = m.ledger.add(ledgerEntry{Player: m.name, MatchID: matchID, InputTokens: r.InputTokens,
			OutputTokens: r.OutputTokens, CostUSD: usd})
	}
}

// BudgetSpent names the budget that is spent, PlayerBudget or
// LeagueBudget ("" while neither is), with what was spent against it.
func (m *Model) BudgetSpent() (string, tally) {
	m.mu.Lock()
	own := m.own
	m.mu.Unlock()
	if m.player.spentBy(own.usd, own.tokens) {
		return PlayerBudget, own
	}
	if m.ledger != nil {
		total, err := m.ledger.spent()
		if err == nil && m.league.spentBy(total.usd, total.tokens) {
			return LeagueBudget, total
		}
	}
	return "", tally{}
}

// askWithRetries runs requests through the circuit breaker until one
// succeeds, a failure is not transient, or the next wait would pass the
// deadline.
func (m *Model) askWithRetries(ctx context.Context, turn Turn) (answer, error) {
	wait := firstBackoff
	var total usage
	for {
		res, err := m.circuit.breaker.Execute(func() (answer, error) { return m.backend.complete(ctx, turn) })
		total = total.add(res.usage)
		if err == nil {
			res.usage = total
			return res, nil
		}
		pe := asProviderError(err, m.circuit)
		if pe.retryable() && pe.exceptionType != circuitOpen {
			m.circuit.last.Store(pe)
		}
		failed := answer{usage: total, asked: res.asked}
		if !pe.retryable() || pe.exceptionType == circuitOpen {
			return failed, pe
		}
		pause := max(wait, pe.retryAfter)
		if deadline, ok := ctx.Deadline(); ok && time.Now().Add(pause).After(deadline) {
			return failed, pe
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return failed, pe
		}
		wait *= 2
	}
}

// circuitOpen is the exception type of a request the open circuit refused.
const circuitOpen = "CircuitOpen"

// asProviderError names any error from a request. An open circuit reports
// the type of the failure that last counted against the provider.
func asProviderError(err error, c *circuit) *providerError {
	var pe *providerError
	switch {
	case errors.As(err, &pe):
		return pe
	case errors.Is(err, gobreaker.ErrOpenState), errors.Is(err, gobreaker.ErrTooManyRequests):
		errorType := engine.ErrorProviderAPI
		if last := c.last.Load(); last != nil {
			errorType = last.errorType
		}
		return &providerError{errorType: errorType, exceptionType: circuitOpen, err: err}
	default:
		return classify(err, 0, 0)
	}
}
