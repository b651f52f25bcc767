package engine

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
)

// Game is one two-player simultaneous-move game the referee can run.
// Adding a game means implementing this interface and calling Register; the
// scheduler, the standings and the league manager never change.
type Game interface {
	// Type is the game's wire name, e.g. "even_odd".
	Type() string
	// MoveType is the move a player is asked for, e.g. "choose_parity".
	MoveType() string
	// Options lists the valid moves, e.g. ["even", "odd"].
	Options() []string
	// Normalize accepts liberal input (surrounding space, any case) and
	// returns the canonical move, or false if it is not a valid move.
	Normalize(raw string) (string, bool)
	// Decide settles a match from two already-normalized moves. rng is
	// MatchRand(seed, matchID, "draw"), so the result is reproducible.
	Decide(moveA, moveB string, rng *rand.Rand) Decision
}

// Decision is what a game decided from two valid moves.
type Decision struct {
	Winner  Side           // SideA, SideB, or NoSide for a draw
	Details map[string]any // game facts for the wire (int and string values), e.g. {"drawn_number": 8, "number_parity": "even"}
	Right   string         // the move that was "right" this time, for strategies to learn from; "" if none
	Reason  string         // one human sentence in terms of "A" and "B", since Decide does not know player ids
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
