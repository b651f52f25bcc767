package engine

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
)

// Game is one two-player game the referee can run. It is a turn loop: the
// game says what each player sees and is asked each turn, checks a move,
// advances once the turn's moves are in, and says when the match is over
// and how it ended. Adding a game means implementing this interface (and
// strategies for it) and calling Register; the scheduler, the standings,
// the referee, the player and the league manager never change.
type Game interface {
	// Type is the game's wire name, e.g. "even_odd".
	Type() string
	// Start begins one match.
	Start(setup MatchSetup) Play
}

// MatchSetup is what a game knows of a match when it starts: enough to
// draw what it needs reproducibly with Rand, and the game's own part.
type MatchSetup struct {
	MatchID string
	Seed    int64 // the league seed
	// GameSetup is what only this game needs, of the type it reads (the
	// link race's RaceSetup); nil for a game that needs nothing more.
	GameSetup any
	// Attempt counts the plays of this match: 2 when it is played again
	// because the game itself failed the first time (Decision.GameFailed);
	// 0 reads as 1.
	Attempt int
}

// Rand is MatchRand(seed, match id, purpose): a game's randomness depends
// only on the seed and the match, never on which match finishes first.
func (s MatchSetup) Rand(purpose string) *rand.Rand { return MatchRand(s.Seed, s.MatchID, purpose) }

// Play is one match of a game in progress. The engine's Match drives it and
// serializes calls, so it needs no locks.
type Play interface {
	// Turn is what side s sees and is asked this turn.
	Turn(s Side) Turn
	// Asked reports whether side s moves this turn; a side whose game has
	// ended while the other's goes on is not asked.
	Asked(s Side) bool
	// Move checks side s's answer for this turn, records it and returns the
	// canonical move. An error wrapping ErrInvalidMove means the answer is
	// not a move at all: nothing is recorded and the player is asked again.
	// A move of the right shape that loses (a link not on the page) is the
	// game's to judge in Advance.
	Move(s Side, a Answer) (string, error)
	// Advance ends the turn once every side asked has moved.
	Advance()
	// Over reports whether the match has ended.
	Over() bool
	// Decide settles the match once it is over.
	Decide() Decision
}

// Turn is what a player is shown and asked in one turn.
type Turn struct {
	Number   int            // 1 for the first turn
	MoveType string         // e.g. "choose_parity"; the move call's move_type
	Options  []string       // the legal moves when the game can list them; nil when any answer of the shape is a move
	State    map[string]any // what the player sees of the game (sent as the move request's context); nil if nothing
}

// Answer is a player's answer to a move call.
type Answer struct {
	MoveType string // the move type the player says it answers, "" if it did not say
	Choice   string // the move, as sent
	// Error is the seed's error type a model player names for its own
	// answer when its model or provider failed ("" for a move): the game
	// ends that player's game with ModelErrorStatus(Error).
	Error string
}

// Decision is what a game decided at the end of a match.
type Decision struct {
	Winner  Side           // SideA, SideB, or NoSide for a draw
	Details map[string]any // game facts for the wire, e.g. {"drawn_number": 8, "number_parity": "even"}
	Right   string         // the move that was "right" this time, for strategies to learn from; "" if none
	Reason  string         // one human sentence in terms of "A" and "B", since the game does not know player ids
	// Step names the decision in a few words for the live match flow, e.g.
	// "drawn 8"; "" gives "decided".
	Step string
	// Statuses is each side's own ending where the game has one (link race:
	// WON, LOST_MAX_STEPS...); empty strings for games without.
	Statuses [2]string
	// GameFailed says the game itself failed (a game program that crashed,
	// hung or contradicted itself): the decision says nothing of the
	// players, and the referee plays the match once more.
	GameFailed bool
}

// Side names one seat of a match without knowing the players' ids.
type Side int

// The sides of a match. NoSide is the zero value and means a draw.
const (
	NoSide Side = iota
	SideA
	SideB
)

// String returns "A", "B" or "none", for logs and reasons.
func (s Side) String() string {
	switch s {
	case SideA:
		return "A"
	case SideB:
		return "B"
	default:
		return "none"
	}
}

// registry holds the games by wire type. Games register from init functions,
// but a lock keeps late registration (e.g. from tests) race-free.
var registry = struct {
	sync.RWMutex
	games map[string]Game
}{games: map[string]Game{}}

// Register adds a game to the registry so that referees and the league
// manager can find it by its wire type. It is meant to be called from an
// init function and panics on a duplicate or empty type, which is a
// programming error.
func Register(g Game) {
	registry.Lock()
	defer registry.Unlock()
	t := g.Type()
	if t == "" {
		panic("engine: Register of a game with an empty type")
	}
	if _, dup := registry.games[t]; dup {
		panic(fmt.Sprintf("engine: Register called twice for game type %q", t))
	}
	registry.games[t] = g
}

// LookupGame finds a registered game by its wire type.
func LookupGame(gameType string) (Game, bool) {
	registry.RLock()
	defer registry.RUnlock()
	g, ok := registry.games[gameType]
	return g, ok
}

// GameTypes lists the registered wire types in sorted order, e.g. for a
// referee's registration message or an error listing what is supported.
func GameTypes() []string {
	registry.RLock()
	defer registry.RUnlock()
	types := make([]string, 0, len(registry.games))
	for t := range registry.games {
		types = append(types, t)
	}
	sort.Strings(types)
	return types
}
