// Package rps is a third game that lives only in the tests: rock, paper,
// scissors over three turns. It is written against the engine's Game and
// Strategy interfaces alone, as any new game is, and registers itself when
// imported; the leaguetui binary of the tests imports it through a build
// overlay (leaguetest.BinaryWithGames), so the production binary never
// holds it.
package rps

import (
	"fmt"
	"strings"

	"github.com/leaguetui/leaguetui/engine"
)

// Type is the game's wire name.
const Type = "rock_paper_scissors"

// Turns is how many throws a match has.
const Turns = 3

// The throws.
const (
	Rock     = "rock"
	Paper    = "paper"
	Scissors = "scissors"
)

var throws = []string{Rock, Paper, Scissors}

// beats maps a throw to the throw it beats.
var beats = map[string]string{Rock: Scissors, Paper: Rock, Scissors: Paper}

// Game is rock, paper, scissors: each turn both throw at once, a turn's
// winner scores a point, and after Turns turns more points wins.
type Game struct{}

func init() {
	engine.Register(Game{})
	engine.RegisterStrategy(Type, "cycle", func(seed int64) engine.Strategy { return cycle{seed: seed} })
	engine.RegisterStrategy(Type, "beat_last", func(seed int64) engine.Strategy { return beatLast{seed: seed} })
}

// Type returns Type.
func (Game) Type() string { return Type }

// Start begins a match; rock, paper, scissors draws nothing.
func (Game) Start(engine.MatchSetup) engine.Play { return &play{} }

type play struct {
	thrown [2][]string
	score  [2]int
}

func (p *play) Turn(s engine.Side) engine.Turn {
	me, them := index(s), 1-index(s)
	state := map[string]any{"your_score": p.score[me], "opponent_score": p.score[them], "turns": Turns}
	if n := len(p.thrown[them]); n > 0 {
		state["opponent_last"] = p.thrown[them][n-1]
	}
	return engine.Turn{Number: len(p.thrown[0]) + 1, MoveType: "throw", Options: append([]string(nil), throws...), State: state}
}

func (p *play) Asked(engine.Side) bool { return !p.Over() }

func (p *play) Move(_ engine.Side, raw string) (string, error) {
	t := strings.ToLower(strings.TrimSpace(raw))
	if _, ok := beats[t]; !ok {
		return "", engine.InvalidMove("%q is not one of %v", raw, throws)
	}
	return t, nil
}

func (p *play) Advance(moves [2]string) {
	for i, m := range moves {
		p.thrown[i] = append(p.thrown[i], m)
	}
	switch {
	case beats[moves[0]] == moves[1]:
		p.score[0]++
	case beats[moves[1]] == moves[0]:
		p.score[1]++
	}
}

func (p *play) Over() bool { return len(p.thrown[0]) >= Turns }

func (p *play) Decide() engine.Decision {
	winner := engine.NoSide
	switch {
	case p.score[0] > p.score[1]:
		winner = engine.SideA
	case p.score[1] > p.score[0]:
		winner = engine.SideB
	}
	score := fmt.Sprintf("%d-%d", p.score[0], p.score[1])
	return engine.Decision{Winner: winner, Step: "score " + score,
		Details: map[string]any{"throws_A": strings.Join(p.thrown[0], " "), "throws_B": strings.Join(p.thrown[1], " "), "turns_won": score},
		Reason:  fmt.Sprintf("A threw %s, B threw %s: %s", strings.Join(p.thrown[0], ", "), strings.Join(p.thrown[1], ", "), score)}
}

func index(s engine.Side) int {
	if s == engine.SideB {
		return 1
	}
	return 0
}

// cycle throws rock, paper, scissors in turn from an offset drawn per match.
type cycle struct{ seed int64 }

func (cycle) Name() string { return "cycle" }

func (c cycle) Choose(ctx engine.MoveContext) string {
	start := engine.MatchRand(c.seed, ctx.MatchID, "strategy:"+ctx.Self).IntN(len(ctx.Options))
	return ctx.Options[(start+ctx.Turn-1)%len(ctx.Options)]
}

func (cycle) Observe(engine.Observation) {}

// beatLast throws what beats the opponent's last throw, which it reads
// from the state the game shows; its first throw is drawn per match.
type beatLast struct{ seed int64 }

func (beatLast) Name() string { return "beat_last" }

func (b beatLast) Choose(ctx engine.MoveContext) string {
	if last, ok := ctx.State["opponent_last"].(string); ok {
		for throw, beaten := range beats {
			if beaten == last {
				return throw
			}
		}
	}
	return ctx.Options[engine.MatchRand(b.seed, ctx.MatchID, "strategy:"+ctx.Self).IntN(len(ctx.Options))]
}

func (beatLast) Observe(engine.Observation) {}
