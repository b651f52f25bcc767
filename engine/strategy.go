package engine

import (
	"math/rand/v2"
	"slices"
)

// MoveContext is what a player knows when asked for a move.
type MoveContext struct {
	Self, OpponentID, MatchID string
	Round                     int
	GameType                  string
	Turn                      int            // 1 for a match's first move
	MoveType                  string         // the move asked for, e.g. "choose_parity"
	Options                   []string       // the game's valid moves, when it lists them
	State                     map[string]any // what the game shows this turn; nil if nothing
}

// Observation is what a player learns when a match ends (from GAME_OVER).
type Observation struct {
	MatchID, OpponentID  string
	MyMove, OpponentMove string         // "" if unknown
	Right                string         // the move that was right (even/odd: the drawn number's parity), "" if unknown
	Details              map[string]any // the game's facts from GAME_OVER, for strategies that read them
}

// Strategy chooses a player's moves and learns from finished matches. A
// strategy is used from one goroutine at a time (the player serializes
// calls), so it needs no locks.
type Strategy interface {
	// Name is the name NewStrategy knows the strategy by.
	Name() string
	// Choose returns one of ctx.Options ("" only if there are none). Asking
	// again for the same match, with nothing observed in between, gives the
	// same move, so retries are safe.
	Choose(ctx MoveContext) string
	// Observe learns from a finished match. A second observation with the
	// same non-empty MatchID is ignored.
	Observe(o Observation)
}

// Strategy tuning.
const (
	favouriteWeight  = 0.7 // frequency: how often it picks the option that was Right most
	explorationRate  = 0.2 // adaptive: how often it plays at random
	adaptiveMinSeen  = 3   // adaptive: opponent moves needed before modelling the opponent
	patternMinLength = 2   // pattern: opponent moves needed to see a streak
)

// strategyNames lists even/odd's strategies in their stable order.
var strategyNames = []string{"random", "frequency", "pattern", "counter", "adaptive"}

func init() {
	for _, name := range strategyNames {
		RegisterStrategy(EvenOddType, name, func(seed int64) Strategy {
			return &strategy{name: name, seed: seed, mem: newMemory()}
		})
	}
}

// StrategyNames returns even/odd's strategy names in a stable order.
func StrategyNames() []string { return StrategyNamesFor(EvenOddType) }

// NewStrategy builds one of even/odd's strategies by name. Its randomness
// for a choice is MatchRand(seed, ctx.MatchID, "strategy:"+ctx.Self), so it
// depends only on the seed, the match and the player. An unknown name is an
// error that lists the valid names.
func NewStrategy(name string, seed int64) (Strategy, error) {
	return NewStrategyFor(EvenOddType, name, seed)
}

// strategy implements every built-in strategy: they remember the same
// things and differ only in how they choose. Each instance has its own
// memory.
type strategy struct {
	name string
	seed int64
	mem  *memory
}

// Name returns the strategy's name.
func (s *strategy) Name() string { return s.name }

// Observe records o in the strategy's memory.
func (s *strategy) Observe(o Observation) { s.mem.observe(o) }

// Choose picks a move according to the strategy's name.
func (s *strategy) Choose(ctx MoveContext) string {
	if len(ctx.Options) == 0 {
		return ""
	}
	rng := MatchRand(s.seed, ctx.MatchID, "strategy:"+ctx.Self)
	switch s.name {
	case "frequency":
		return s.frequency(ctx.Options, rng)
	case "pattern":
		return s.pattern(ctx, rng)
	case "counter":
		return s.counter(ctx, rng)
	case "adaptive":
		return s.adaptive(ctx, rng)
	default:
		return pickRandom(ctx.Options, rng)
	}
}

// frequency leans toward the option that was Right most often so far; with
// no history, or no single favourite, it plays at random.
func (s *strategy) frequency(options []string, rng *rand.Rand) string {
	fav, ok := s.mem.favourite(options)
	if !ok {
		return pickRandom(options, rng)
	}
	if rng.Float64() < favouriteWeight {
		return fav
	}
	return pickRandom(others(options, fav), rng)
}

// pattern extrapolates a streak or an alternation in this opponent's moves
// and plays something else than the predicted move.
func (s *strategy) pattern(ctx MoveContext, rng *rand.Rand) string {
	if predicted, ok := s.mem.opponent(ctx.OpponentID).patternPrediction(); ok {
		return different(ctx.Options, predicted)
	}
	return pickRandom(ctx.Options, rng)
}

// counter predicts this opponent's most frequent move and plays something
// else.
func (s *strategy) counter(ctx MoveContext, rng *rand.Rand) string {
	if predicted, ok := s.mem.opponent(ctx.OpponentID).mostFrequent(ctx.Options); ok {
		return different(ctx.Options, predicted)
	}
	return pickRandom(ctx.Options, rng)
}

// adaptive is epsilon-greedy: it explores at random, otherwise counters the
// opponent once it has seen enough of them, and falls back to frequency.
func (s *strategy) adaptive(ctx MoveContext, rng *rand.Rand) string {
	if rng.Float64() < explorationRate {
		return pickRandom(ctx.Options, rng)
	}
	if s.mem.opponent(ctx.OpponentID).seen >= adaptiveMinSeen {
		return s.counter(ctx, rng)
	}
	return s.frequency(ctx.Options, rng)
}

// pickRandom picks uniformly from a non-empty slice.
func pickRandom(options []string, rng *rand.Rand) string {
	return options[rng.IntN(len(options))]
}

// different returns the first option other than avoid (with two options,
// simply the other one), or the first option if there is no other.
func different(options []string, avoid string) string {
	for _, o := range options {
		if o != avoid {
			return o
		}
	}
	return options[0]
}

// others returns the options other than skip, or all options if none is
// left.
func others(options []string, skip string) []string {
	var out []string
	for _, o := range options {
		if o != skip {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		return options
	}
	return out
}

// memory is what a strategy remembers between matches. It is bounded by the
// number of opponents and matches, never by the length of a history.
type memory struct {
	right     map[string]int            // move -> how often it was Right
	opponents map[string]*opponentStats // opponent id -> what they played
	seen      map[string]bool           // match ids already observed
}

// opponentStats summarizes one opponent's known moves.
type opponentStats struct {
	seen   int            // how many of their moves are known
	counts map[string]int // move -> how often they played it
	recent []string       // their last few moves, oldest first
}

// recentLength is how many recent moves pattern detection keeps.
const recentLength = 3

func newMemory() *memory {
	return &memory{
		right:     map[string]int{},
		opponents: map[string]*opponentStats{},
		seen:      map[string]bool{},
	}
}

// observe records one finished match, once per match id.
func (m *memory) observe(o Observation) {
	if o.MatchID != "" {
		if m.seen[o.MatchID] {
			return
		}
		m.seen[o.MatchID] = true
	}
	right := o.Right
	if right == "" {
		right, _ = o.Details["number_parity"].(string) // even/odd's GAME_OVER names what was right so
	}
	if right != "" {
		m.right[right]++
	}
	if o.OpponentMove != "" {
		m.opponent(o.OpponentID).add(o.OpponentMove)
	}
}

// opponent returns the stats for an opponent, creating them if needed.
func (m *memory) opponent(id string) *opponentStats {
	s, ok := m.opponents[id]
	if !ok {
		s = &opponentStats{counts: map[string]int{}}
		m.opponents[id] = s
	}
	return s
}

// favourite returns the option that was Right most often, if exactly one
// option holds the top count and that count is positive.
func (m *memory) favourite(options []string) (string, bool) {
	best, bestCount, tie := "", 0, false
	for _, o := range options {
		switch c := m.right[o]; {
		case c > bestCount:
			best, bestCount, tie = o, c, false
		case c == bestCount && c > 0:
			tie = true
		}
	}
	return best, bestCount > 0 && !tie
}

// add records one of the opponent's moves.
func (s *opponentStats) add(move string) {
	s.seen++
	s.counts[move]++
	s.recent = append(s.recent, move)
	if len(s.recent) > recentLength {
		s.recent = s.recent[1:]
	}
}

// patternPrediction extrapolates the opponent's recent moves: after a streak
// of two or more equal moves it expects the same again; after a strict
// alternation (x, y, x) it expects the switch (y).
func (s *opponentStats) patternPrediction() (string, bool) {
	r := s.recent
	n := len(r)
	switch {
	case n >= patternMinLength && r[n-1] == r[n-2]:
		return r[n-1], true
	case n >= 3 && r[n-1] == r[n-3]:
		return r[n-2], true
	default:
		return "", false
	}
}

// mostFrequent predicts the opponent's move among options: their most
// frequent one, ties broken by their last move, then by options order.
func (s *opponentStats) mostFrequent(options []string) (string, bool) {
	var tied []string
	bestCount := 0
	for _, o := range options {
		switch c := s.counts[o]; {
		case c > bestCount:
			tied, bestCount = []string{o}, c
		case c == bestCount && c > 0:
			tied = append(tied, o)
		}
	}
	if len(tied) == 0 {
		return "", false
	}
	if last := s.last(); len(tied) > 1 && slices.Contains(tied, last) {
		return last, true
	}
	return tied[0], true
}

// last returns the opponent's last known move, or "".
func (s *opponentStats) last() string {
	if len(s.recent) == 0 {
		return ""
	}
	return s.recent[len(s.recent)-1]
}
