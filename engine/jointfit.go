package engine

import (
	"math"
	"slices"
)

// The joint fit puts the seat advantage and the draws into the ratings'
// model, beside the players' strengths, rather than after them (fitSeat
// holds the ratings fixed). It is Davidson's model with a first-seat term:
// with a = e^(θ_a + η) for the first seat, b = e^(θ_b) for the second and
// D = a + b + ν·√(a·b),
//
//	P(the first seat wins) = a/D,  P(the second wins) = b/D,  P(draw) = ν·√(a·b)/D
//
// η is the first seat's advantage and ν the draw parameter: two equal
// players in neutral seats draw with probability ν/(2 + ν). Fitted by
// Fisher scoring on every parameter at once, the intervals of η and ν
// come from the joint covariance, so they carry the players' uncertainty
// too. It is reported beside the ratings, not instead of them: the table's
// ratings stay the Bradley–Terry fit with a draw half a win, which every
// interval, rank interval and separation verdict is computed on.

// JointFit is the seat advantage and the draw parameter fitted with the
// players' strengths. Known is false where the results give no finite fit:
// no counted game, or results that do not link every player both ways (the
// ratings then need their prior, Ratings.Prior).
type JointFit struct {
	Seat  SeatAdvantage // η in Elo, its 95 % interval from the joint covariance
	Draw  DrawParameter
	Games int
	Known bool
}

// DrawParameter is Davidson's ν with its 95 % interval (from log ν's
// standard error, so never below 0) and what it means: the probability
// that two equal players draw in neutral seats, ν/(2 + ν). Known is false
// without a draw (ν is then 0 and the model is Bradley–Terry's).
type DrawParameter struct {
	Nu, Low, High float64
	EqualDraw     float64
	Known         bool
}

// jointGame is a counted game: the first seat's and the second's player
// (indexes among the rated), and the first seat's score, 0, ½ or 1.
type jointGame struct {
	a, b  int
	score float64
}

// FitSeatAndDraws is the joint fit of players over results.
func FitSeatAndDraws(players []string, results []Result, opts RatingOptions) JointFit {
	r := FitRatings(players, results, opts)
	games, draws := jointGames(r, results, opts)
	rated := 0
	for _, p := range r.Players {
		rated += b2i(p.Rated)
	}
	if len(games) == 0 || r.Prior || rated < 2 {
		return JointFit{Games: len(games)}
	}
	j := newJointModel(r, games, draws > 0)
	if !j.solve() {
		return JointFit{Games: len(games)}
	}
	return j.result()
}

// jointGames lists the counted games between rated players, by their row
// in the fit, and counts the draws.
func jointGames(r *Ratings, results []Result, opts RatingOptions) (games []jointGame, draws int) {
	for _, res := range results {
		s, ok := gameScore(res, opts)
		i, okA := r.index[res.PlayerA]
		k, okB := r.index[res.PlayerB]
		if !ok || !okA || !okB || i == k || !r.Players[i].Rated || !r.Players[k].Rated {
			continue
		}
		games = append(games, jointGame{a: r.rated[i], b: r.rated[k], score: s})
		draws += b2i(s == 0.5)
	}
	return games, draws
}

// jointModel holds the parameters: θ of each rated player but the first
// (fixed at 0: only differences count), then η, then log ν when there are
// draws. x is in natural units.
type jointModel struct {
	games     []jointGame
	players   int
	withDraws bool
	x         []float64
	info      [][]float64 // the information matrix at x, full
	grad      []float64
}

func newJointModel(r *Ratings, games []jointGame, withDraws bool) *jointModel {
	players := 0
	for _, row := range r.rated {
		players = max(players, row+1)
	}
	n := players + b2i(withDraws) // players−1 strengths, η, log ν
	j := &jointModel{games: games, players: players, withDraws: withDraws, x: make([]float64, n)}
	for i, row := range r.rated {
		if row > 0 {
			j.x[row-1] = (r.Players[i].Elo - firstRatedElo(r)) / eloPerNatural
		}
	}
	if r.Seat.Known {
		j.x[players-1] = r.Seat.Elo / eloPerNatural
	}
	if withDraws {
		j.x[players] = math.Log(2 * drawShare(games) / (1 - drawShare(games) + 1e-9))
	}
	return j
}

// firstRatedElo is the rating of the player in the fit's first row.
func firstRatedElo(r *Ratings) float64 {
	for i, row := range r.rated {
		if row == 0 {
			return r.Players[i].Elo
		}
	}
	return 0
}

func drawShare(games []jointGame) float64 {
	d := 0
	for _, g := range games {
		d += b2i(g.score == 0.5)
	}
	return float64(d) / float64(len(games))
}

// solve runs Fisher scoring, each step bounded to 1 natural unit, until a
// step moves no parameter by 1e-9; false when it did not converge to a
// finite fit.
func (j *jointModel) solve() bool {
	n := len(j.x)
	for range 100 {
		j.evaluate()
		l := choleskyInto(lowerOf(j.info), lowerMatrix(n))
		step := cholSolve(l, j.grad)
		biggest := 0.0
		for _, s := range step {
			biggest = max(biggest, math.Abs(s))
		}
		scale := min(1, 1/biggest)
		for i := range j.x {
			j.x[i] += scale * step[i]
		}
		if slices.ContainsFunc(j.x, func(v float64) bool { return math.IsNaN(v) || math.Abs(v) > 20 }) {
			return false
		}
		if biggest < 1e-9 {
			j.evaluate()
			return true
		}
	}
	return false
}

// lowerOf is the lower triangle of a full symmetric matrix.
func lowerOf(full [][]float64) [][]float64 {
	l := lowerMatrix(len(full))
	for i := range l {
		copy(l[i], full[i][:i+1])
	}
	return l
}

// evaluate sets the score vector and the expected information at x.
func (j *jointModel) evaluate() {
	n := len(j.x)
	j.grad = make([]float64, n)
	j.info = make([][]float64, n)
	for i := range j.info {
		j.info[i] = make([]float64, n)
	}
	eta, logNu := j.x[j.players-1], math.Inf(-1)
	if j.withDraws {
		logNu = j.x[j.players]
	}
	for _, g := range j.games {
		j.addGame(g, eta, logNu)
	}
}

// addGame adds one game's score and information. The game's log-likelihood
// depends on u = θ_a + η, v = θ_b and log ν; groups maps each of those to
// the parameters it is made of.
func (j *jointModel) addGame(g jointGame, eta, logNu float64) {
	u, v := j.theta(g.a)+eta, j.theta(g.b)
	m := max(u, v) // for exp's range
	a, b := math.Exp(u-m), math.Exp(v-m)
	c := math.Exp(logNu + (u+v)/2 - m)
	d := a + b + c
	pa, pb, pc := a/d, b/d, c/d
	mu, mv := pa+pc/2, pb+pc/2
	won, lost, drew := b2f(g.score == 1), b2f(g.score == 0), b2f(g.score == 0.5)
	score := [3]float64{won + drew/2 - mu, lost + drew/2 - mv, drew - pc}
	info := [3][3]float64{
		{pa + pc/4 - mu*mu, pc/4 - mu*mv, pc/2 - mu*pc},
		{pc/4 - mu*mv, pb + pc/4 - mv*mv, pc/2 - mv*pc},
		{pc/2 - mu*pc, pc/2 - mv*pc, pc - pc*pc},
	}
	groups := [3][]int{j.params(g.a, true), j.params(g.b, false), nil}
	if j.withDraws {
		groups[2] = []int{j.players}
	}
	for x, gx := range groups {
		for _, p := range gx {
			j.grad[p] += score[x]
			for y, gy := range groups {
				for _, q := range gy {
					j.info[p][q] += info[x][y]
				}
			}
		}
	}
}

// theta is a rated player's strength (the first row's is 0).
func (j *jointModel) theta(row int) float64 {
	if row == 0 {
		return 0
	}
	return j.x[row-1]
}

// params are the parameters a seat's term is made of: the player's θ
// (none for the first row) and, for the first seat, η.
func (j *jointModel) params(row int, first bool) []int {
	var ps []int
	if row > 0 {
		ps = append(ps, row-1)
	}
	if first {
		ps = append(ps, j.players-1)
	}
	return ps
}

func b2f(b bool) float64 { return float64(b2i(b)) }

// result reads η and ν with their intervals off the inverse information.
func (j *jointModel) result() JointFit {
	n := len(j.x)
	cov := invertLower(choleskyInto(lowerOf(j.info), lowerMatrix(n)))
	eta := j.players - 1
	fit := JointFit{Games: len(j.games), Known: true, Seat: SeatAdvantage{Elo: j.x[eta] * eloPerNatural,
		CI95: z95 * eloPerNatural * math.Sqrt(max(cov[eta][eta], 0)), Games: len(j.games), Known: true}}
	if j.withDraws {
		logNu, se := j.x[j.players], math.Sqrt(max(cov[j.players][j.players], 0))
		nu := math.Exp(logNu)
		fit.Draw = DrawParameter{Nu: nu, Low: math.Exp(logNu - z95*se), High: math.Exp(logNu + z95*se), EqualDraw: nu / (2 + nu), Known: true}
	}
	return fit
}
