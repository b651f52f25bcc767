package engine

import (
	"cmp"
	"math"
	"slices"
)

// Ratings on the Elo scale: a Bradley–Terry model, P(i beats j) =
// 1/(1 + 10^((r_j - r_i)/400)), fitted by maximum likelihood to every
// result, a draw counting as half a win and half a loss. Ratings have mean
// 0. The 95 % intervals are the fitted model's standard errors (the inverse
// of the information matrix at the optimum), not a bootstrap: they need no
// random numbers and one fit gives them. The likelihood of superiority of
// one player over another is Φ(Δ/SE(Δ)) with the covariance of the two
// ratings.
//
// A finite maximum needs the results to link everyone both ways: for every
// split of the players in two, each side scored at least a draw against the
// other. When they do not (a perfect score, a Swiss league's first rounds),
// each player is given VirtualDraws draws against a virtual opponent rated
// 0, a prior that keeps every rating finite; Ratings.Prior says so.

// eloPerNatural converts natural units (θ = r·ln10/400) to Elo: 173.72.
var eloPerNatural = 400 / math.Ln10

// z95 is the two-sided 95 % normal quantile.
const z95 = 1.959963984540054

// VirtualDraws is how many draws against a virtual opponent rated 0 each
// player is given when the results alone have no finite maximum.
const VirtualDraws = 2

// RatingOptions choose what the fit counts.
type RatingOptions struct {
	// ExcludeTechnical leaves technical losses out; by default the
	// offender's technical loss counts as a loss (and a technical loss of
	// both players, which says nothing about who is stronger, is left out
	// either way).
	ExcludeTechnical bool
}

// PlayerRating is one player's fitted rating.
type PlayerRating struct {
	PlayerID string
	Games    int     // games the fit counted
	Score    float64 // wins + draws/2 among them
	Elo      float64 // mean 0 over the rated players
	CI95     float64 // half-width of the 95 % interval, in Elo
	Rated    bool    // false for a player without a counted game
}

// Ratings is a fitted table.
type Ratings struct {
	Players []PlayerRating // in the order the players were given
	Games   int            // games counted
	Prior   bool           // virtual draws were needed for finite ratings
	index   map[string]int
	rated   []int       // Players index -> row of cov, -1 if unrated
	cov     [][]float64 // covariance of the mean-0 ratings, natural units
}

// Rating returns one player's rating.
func (r *Ratings) Rating(id string) (PlayerRating, bool) {
	i, ok := r.index[id]
	if !ok {
		return PlayerRating{}, false
	}
	return r.Players[i], true
}

// LOS is the likelihood that a is stronger than b: Φ(Δ/SE(Δ)) with Δ the
// difference of their ratings and SE(Δ) its standard error. It is 0.5 when
// either is unknown or unrated.
func (r *Ratings) LOS(a, b string) float64 {
	i, okA := r.index[a]
	j, okB := r.index[b]
	if !okA || !okB || r.rated[i] < 0 || r.rated[j] < 0 || i == j {
		return 0.5
	}
	x, y := r.rated[i], r.rated[j]
	variance := r.cov[x][x] + r.cov[y][y] - 2*r.cov[x][y]
	diff := (r.Players[i].Elo - r.Players[j].Elo) / eloPerNatural
	if variance <= 0 {
		return 0.5 + math.Copysign(0.5, diff)
	}
	return normalCDF(diff / math.Sqrt(variance))
}

// DifferenceSE is the standard error, in Elo, of a's rating minus b's.
func (r *Ratings) DifferenceSE(a, b string) float64 {
	i, okA := r.index[a]
	j, okB := r.index[b]
	if !okA || !okB || r.rated[i] < 0 || r.rated[j] < 0 {
		return math.Inf(1)
	}
	x, y := r.rated[i], r.rated[j]
	return eloPerNatural * math.Sqrt(max(r.cov[x][x]+r.cov[y][y]-2*r.cov[x][y], 0))
}

func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// EloExpected is the expected score for a rating lead of d Elo.
func EloExpected(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// EloFromScore is the rating lead that expects score s (0 < s < 1).
func EloFromScore(s float64) float64 { return 400 * math.Log10(s/(1-s)) }

// pairGames is what two rated players (by fit index, a < b) scored
// against each other: n games, a scoring s of them.
type pairGames struct {
	a, b int
	n, s float64
}

// FitRatings fits the ratings of players from results. Players met in a
// result but not listed are added after them. It is deterministic: the
// same players and results (in any order) give the same ratings.
func FitRatings(players []string, results []Result, opts RatingOptions) *Ratings {
	return fitRatings(players, len(results), func(i int) Result { return results[i] }, opts)
}

// FitRecorded is FitRatings over the results a League recorded (see
// League.RecordedResults), made one at a time rather than all at once.
func FitRecorded(players []string, results ResultList, opts RatingOptions) *Ratings {
	return fitRatings(players, results.Len(), results.At, opts)
}

func fitRatings(players []string, count int, result func(int) Result, opts RatingOptions) *Ratings {
	r := &Ratings{index: make(map[string]int, len(players))}
	add := func(id string) int {
		if i, ok := r.index[id]; ok {
			return i
		}
		r.index[id] = len(r.Players)
		r.Players = append(r.Players, PlayerRating{PlayerID: id})
		return len(r.Players) - 1
	}
	for _, p := range players {
		add(p)
	}
	pairs := make([]pairGames, 0, count) // one per game, merged per pair below: no map of half a million pairs
	for i := range count {
		res := result(i)
		scoreA, ok := gameScore(res, opts)
		if !ok {
			continue
		}
		a, b := add(res.PlayerA), add(res.PlayerB)
		if a == b {
			continue
		}
		if a > b {
			a, b, scoreA = b, a, 1-scoreA
		}
		pairs = append(pairs, pairGames{a: a, b: b, n: 1, s: scoreA})
		r.Games++
		r.Players[a].Games++
		r.Players[b].Games++
		r.Players[a].Score += scoreA
		r.Players[b].Score += 1 - scoreA
	}
	r.fit(mergePairs(pairs))
	return r
}

// mergePairs sorts games by pair and adds up each pair's games in place.
func mergePairs(games []pairGames) []pairGames {
	slices.SortFunc(games, func(x, y pairGames) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	out := games[:0]
	for _, g := range games {
		if last := len(out) - 1; last >= 0 && out[last].a == g.a && out[last].b == g.b {
			out[last].n += g.n
			out[last].s += g.s
			continue
		}
		out = append(out, g)
	}
	return out
}

// gameScore is the first-named player's score in a result, and whether the
// result counts.
func gameScore(res Result, opts RatingOptions) (float64, bool) {
	if res.Status == StatusTechnicalLoss && opts.ExcludeTechnical {
		return 0, false
	}
	switch a, b := kindFor(res, res.PlayerA), kindFor(res, res.PlayerB); {
	case a == drew:
		return 0.5, true
	case a == won && b != won:
		return 1, true
	case b == won && a != won:
		return 0, true
	}
	return 0, false // both lost (a double technical loss) or malformed
}

// fit finds the ratings of the players with games by Newton's method on
// the log-likelihood (concave, so each step is safe once its size is
// bounded), then keeps the inverse information matrix as the covariance.
func (r *Ratings) fit(all []pairGames) {
	r.rated = make([]int, len(r.Players))
	var ids []int // fit index -> Players index
	for i, p := range r.Players {
		r.rated[i] = -1
		if p.Games > 0 {
			r.rated[i] = len(ids)
			ids = append(ids, i)
		}
	}
	n := len(ids)
	if n == 0 {
		return
	}
	pairs := all // renumbered in place: the caller's own merged copy, half a million at 1,000 players
	for k, pg := range all {
		pairs[k].a, pairs[k].b = r.rated[pg.a], r.rated[pg.b]
	}
	score := make([]float64, n)
	for k, i := range ids {
		score[k] = r.Players[i].Score
	}
	r.Prior = !linkedBothWays(n, pairs)
	prior := 0.0
	if r.Prior {
		prior = VirtualDraws
	}
	theta := make([]float64, n)
	info, factor := squareMatrix(n), lowerMatrix(n) // reused by every step: 8 MB each at 1,000 players
	grad := make([]float64, n)
	for range 200 {
		clear(grad)
		informationMatrix(theta, pairs, prior, grad, info)
		for k := range grad {
			grad[k] += score[k] + prior/2
		}
		step := cholSolve(choleskyInto(info, factor), grad)
		largest := 0.0
		for _, d := range step {
			largest = max(largest, math.Abs(d))
		}
		scale := 1.0
		if largest > 1 {
			scale = 1 / largest // at most 174 Elo per step
		}
		for k := range theta {
			theta[k] += scale * step[k]
		}
		if largest < 1e-10 {
			break
		}
	}
	informationMatrix(theta, pairs, prior, grad, info)
	r.cov = centredCovariance(info, factor, !r.Prior)
	mean := 0.0
	for _, t := range theta {
		mean += t
	}
	mean /= float64(n)
	for k, i := range ids {
		r.Players[i].Rated = true
		r.Players[i].Elo = (theta[k] - mean) * eloPerNatural
		r.Players[i].CI95 = z95 * eloPerNatural * math.Sqrt(max(r.cov[k][k], 0))
	}
}

// informationMatrix writes the Fisher information at theta into info and
// subtracts every player's expected score from grad (which the caller then
// adds the actual scores to). With prior > 0 each player also plays prior
// games against a fixed opponent at 0. Without a prior the matrix is
// singular (only differences are identified), and 1/n is added to every
// entry, which fixes the mean and changes no difference.
func informationMatrix(theta []float64, pairs []pairGames, prior float64, grad []float64, info [][]float64) {
	n := len(theta)
	fill := 0.0
	if prior == 0 {
		fill = 1 / float64(n)
	}
	for k := range info {
		for j := range info[k] {
			info[k][j] = fill
		}
		if prior > 0 {
			p := logistic(theta[k])
			grad[k] -= prior * p
			info[k][k] += prior * p * (1 - p)
		}
	}
	for _, pg := range pairs {
		p := logistic(theta[pg.a] - theta[pg.b])
		w := pg.n * p * (1 - p)
		grad[pg.a] -= pg.n * p
		grad[pg.b] -= pg.n * (1 - p)
		info[pg.a][pg.a] += w
		info[pg.b][pg.b] += w
		info[pg.a][pg.b] -= w
		info[pg.b][pg.a] -= w
	}
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// centredCovariance inverts info (factor is room for its Cholesky factor)
// and returns the covariance of the ratings with their mean removed.
// filled says info had 1/n added to every entry, whose inverse then holds
// 1/n too, taken away here.
func centredCovariance(info, factor [][]float64, filled bool) [][]float64 {
	n := len(info)
	inv := invertInto(choleskyInto(info, factor), info)
	if filled {
		for i := range inv {
			for j := range inv[i] {
				inv[i][j] -= 1 / float64(n)
			}
		}
		return inv
	}
	// C·inv·C with C = I - J/n.
	rowMean := make([]float64, n)
	all := 0.0
	for i := range inv {
		for _, v := range inv[i] {
			rowMean[i] += v
		}
		all += rowMean[i]
		rowMean[i] /= float64(n)
	}
	all /= float64(n * n)
	for i := range inv {
		for j := range inv[i] {
			inv[i][j] += all - rowMean[i] - rowMean[j] // inv is symmetric: column means are row means
		}
	}
	return inv
}

// linkedBothWays reports whether every player can be reached from every
// other along "scored at least a draw against" edges: the condition for a
// finite maximum likelihood.
func linkedBothWays(n int, pairs []pairGames) bool {
	return reachesAll(n, pairs, false) && reachesAll(n, pairs, true)
}

// reachesAll reports whether every player is reached from player 0 along
// "scored against" links (reversed: "was scored against by"). The links
// are one array of int32 indexed by player (a compressed adjacency list):
// at 1,000 players a round robin has a million of them, and a slice per
// player grown by append cost 24 MB a fit.
func reachesAll(n int, pairs []pairGames, reversed bool) bool {
	each := func(link func(from, to int)) {
		for _, pg := range pairs {
			a, b := pg.a, pg.b
			if reversed {
				a, b = b, a
			}
			if pg.s > 0 { // a scored against b
				link(a, b)
			}
			if pg.s < pg.n {
				link(b, a)
			}
		}
	}
	start := make([]int32, n+1) // player v's links are adj[start[v]:start[v+1]]
	each(func(from, _ int) { start[from+1]++ })
	for v := range n {
		start[v+1] += start[v]
	}
	adj := make([]int32, start[n])
	next := slices.Clone(start[:n])
	each(func(from, to int) {
		adj[next[from]] = int32(to)
		next[from]++
	})
	seen := make([]bool, n)
	stack := []int32{0}
	seen[0] = true
	count := 1
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range adj[start[v]:start[v+1]] {
			if !seen[w] {
				seen[w] = true
				count++
				stack = append(stack, w)
			}
		}
	}
	return count == n
}
