package engine

import (
	"iter"
	"math"
)

// The seat advantage is how much stronger a player is in the first seat
// (PlayerA of a pairing) than in the second, on the ratings' Elo scale:
// the h of P(the first seat wins) = 1/(1 + 10^(−(elo(a) − elo(b) + h)/400)),
// a draw half a win as in the ratings. It is fitted after the ratings,
// holding them fixed (the ratings are the model's without a seat term;
// with seats alternating, as every format of leaguetui seats them, a seat
// term barely moves them), by Newton's method on the one parameter; its
// 95 % interval is from that parameter's information, so it leaves out
// the ratings' own uncertainty and is a little narrow where few games
// were played.

// SeatAdvantage is the fitted first seat's advantage, in Elo, with the
// half-width of its 95 % interval and the games it rests on; Known is
// false without a counted game between two rated players.
type SeatAdvantage struct {
	Elo, CI95 float64
	Games     int
	Known     bool
}

// fitSeat is the seat advantage of results given the fitted ratings r:
// one pass keeps each counted game's rating difference and score (8
// bytes a game), then Newton's method runs on those alone.
func (r *Ratings) fitSeat(results iter.Seq[Result], opts RatingOptions) SeatAdvantage {
	var games []seatGame
	for res := range results {
		s, ok := gameScore(res, opts)
		i, okA := r.index[res.PlayerA]
		j, okB := r.index[res.PlayerB]
		if ok && okA && okB && r.Players[i].Rated && r.Players[j].Rated {
			games = append(games, seatGame{diff: float32((r.Players[i].Elo - r.Players[j].Elo) / eloPerNatural), score: float32(s)})
		}
	}
	if len(games) == 0 {
		return SeatAdvantage{}
	}
	h, info := 0.0, 0.0 // natural units
	for range 50 {
		grad := 0.0
		info = 0
		for _, g := range games {
			e := 1 / (1 + math.Exp(-(float64(g.diff) + h)))
			grad += float64(g.score) - e
			info += e * (1 - e)
		}
		if info == 0 { // every expectation 0 or 1: h ran off to where no finite advantage is
			break
		}
		step := math.Max(-1, math.Min(1, grad/info)) // bounded: a seat that wins every game has no finite advantage
		h += step
		if math.Abs(step) < 1e-9 {
			break
		}
	}
	if math.Abs(h) > 10 || info == 0 { // past ±1,700 Elo: every game won by one seat
		return SeatAdvantage{Games: len(games)}
	}
	return SeatAdvantage{Elo: h * eloPerNatural, CI95: z95 * eloPerNatural / math.Sqrt(info), Games: len(games), Known: true}
}

// seatGame is one game as fitSeat reads it: the first seat's rating minus
// the second's (natural units) and the first seat's score.
type seatGame struct{ diff, score float32 }
