package engine

import "fmt"

// AnyRandomName is the name of the strategy that plays any game listing
// its legal moves: a game program registers it for itself.
const AnyRandomName = "random"

// NewAnyRandom is the random strategy of a game that lists its legal moves
// (a game program's): each move is drawn uniformly from the turn's options
// with MatchRand(seed, match, purpose), the purpose "strategy:"+Self on a
// match's first turn, as even/odd's random strategy draws, and
// "strategy:SELF:TURN" on every later one. It depends only on the seed,
// the match, the player and the turn, so asking again gives the same move.
func NewAnyRandom(seed int64) Strategy { return anyRandom{seed: seed} }

type anyRandom struct{ seed int64 }

func (anyRandom) Name() string { return AnyRandomName }

func (anyRandom) Observe(Observation) {}

func (r anyRandom) Choose(ctx MoveContext) string {
	if len(ctx.Options) == 0 {
		return ""
	}
	purpose := "strategy:" + ctx.Self
	if ctx.Turn > 1 {
		purpose = fmt.Sprintf("strategy:%s:%d", ctx.Self, ctx.Turn)
	}
	return pickRandom(ctx.Options, MatchRand(r.seed, ctx.MatchID, purpose))
}
