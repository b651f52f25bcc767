package engine

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// StrategyMaker builds a fresh strategy, its randomness derived from seed.
type StrategyMaker func(seed int64) Strategy

// strategies holds each game's strategies in the order they registered.
var strategies = struct {
	sync.RWMutex
	byGame map[string][]namedStrategy
}{byGame: map[string][]namedStrategy{}}

type namedStrategy struct {
	name string
	make StrategyMaker
}

// RegisterStrategy adds a strategy for a game, usually from the init
// function of the game's file. The first one a game registers is its
// default. A duplicate name is a programming error and panics.
func RegisterStrategy(gameType, name string, make StrategyMaker) {
	strategies.Lock()
	defer strategies.Unlock()
	for _, s := range strategies.byGame[gameType] {
		if s.name == name {
			panic(fmt.Sprintf("engine: strategy %q registered twice for %s", name, gameType))
		}
	}
	strategies.byGame[gameType] = append(strategies.byGame[gameType], namedStrategy{name, make})
}

// StrategyNamesFor lists a game's strategies, its default first.
func StrategyNamesFor(gameType string) []string {
	strategies.RLock()
	defer strategies.RUnlock()
	names := make([]string, 0, len(strategies.byGame[gameType]))
	for _, s := range strategies.byGame[gameType] {
		names = append(names, s.name)
	}
	return names
}

// NewStrategyFor builds a game's strategy by name; an unknown name is an
// error that lists the game's strategies.
func NewStrategyFor(gameType, name string, seed int64) (Strategy, error) {
	strategies.RLock()
	defer strategies.RUnlock()
	for _, s := range strategies.byGame[gameType] {
		if s.name == name {
			return s.make(seed), nil
		}
	}
	return nil, fmt.Errorf("unknown strategy %q, want one of: %s", name, strings.Join(namesOf(strategies.byGame[gameType]), ", "))
}

func namesOf(list []namedStrategy) []string {
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = s.name
	}
	return names
}

// PlayableGames lists, sorted, the registered games that have strategies:
// the games a built-in player can play.
func PlayableGames() []string {
	strategies.RLock()
	defer strategies.RUnlock()
	var types []string
	for _, t := range GameTypes() {
		if len(strategies.byGame[t]) > 0 {
			types = append(types, t)
		}
	}
	sort.Strings(types)
	return types
}
