package engine

import (
	"fmt"
	"math/rand/v2"
)

// OneMoveGame is the simplest shape of game: each player makes one move at
// the same time, from a fixed list, and the game settles the match from the
// two moves. OneMove turns it into a Play.
type OneMoveGame interface {
	// MoveType is the move a player is asked for, e.g. "choose_parity".
	MoveType() string
	// Options lists the valid moves, e.g. ["even", "odd"].
	Options() []string
	// Normalize accepts liberal input (surrounding space, any case) and
	// returns the canonical move, or false if it is not a valid move.
	Normalize(raw string) (string, bool)
	// Decide settles a match from two already-normalized moves. rng is
	// MatchRand(seed, matchID, "draw"), drawn only after both moves are in.
	Decide(moveA, moveB string, rng *rand.Rand) Decision
}

// OneMove plays g's match of setup as a single turn.
func OneMove(g OneMoveGame, setup MatchSetup) Play {
	return &oneMovePlay{game: g, setup: setup}
}

type oneMovePlay struct {
	game  OneMoveGame
	setup MatchSetup
	moves [2]string
	over  bool
}

func (p *oneMovePlay) Turn(Side) Turn {
	return Turn{Number: 1, MoveType: p.game.MoveType(), Options: p.game.Options()}
}

func (p *oneMovePlay) Asked(Side) bool { return !p.over }

func (p *oneMovePlay) Move(_ Side, raw string) (string, error) {
	move, ok := p.game.Normalize(raw)
	if !ok {
		return "", InvalidMove("%q is not one of %v", raw, p.game.Options())
	}
	return move, nil
}

func (p *oneMovePlay) Advance(moves [2]string) { p.moves, p.over = moves, true }

func (p *oneMovePlay) Over() bool { return p.over }

func (p *oneMovePlay) Decide() Decision {
	return p.game.Decide(p.moves[0], p.moves[1], p.setup.Rand("draw"))
}

// InvalidMove is an error that matches ErrInvalidMove and reads as the
// formatted reason alone, the text a player is told.
func InvalidMove(format string, args ...any) error {
	return invalidMove(fmt.Sprintf(format, args...))
}

type invalidMove string

func (e invalidMove) Error() string        { return string(e) }
func (e invalidMove) Is(target error) bool { return target == ErrInvalidMove }
