package engine

import (
	"iter"
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
	Seat    SeatAdvantage  // the first seat's advantage, fitted after the ratings
	index   map[string]int
	rated   []int      // Players index -> row of cov, -1 if unrated
	cov     covariance // of the mean-0 ratings, natural units
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
	variance := r.cov.at(x, x) + r.cov.at(y, y) - 2*r.cov.at(x, y)
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
	return eloPerNatural * math.Sqrt(max(r.cov.at(x, x)+r.cov.at(y, y)-2*r.cov.at(x, y), 0))
}

func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// ShownElo is a rating as tables print it, to the whole point: rounded,
// and never -0 (a rating of -0.3 prints "+0", as 0.3 does).
func ShownElo(elo float64) float64 {
	r := math.Round(elo)
	if r == 0 {
		return 0 // math.Round(-0.3) is -0, which %+.0f prints "-0"
	}
	return r
}

// EloExpected is the expected score for a rating lead of d Elo.
func EloExpected(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// EloFromScore is the rating lead that expects score s (0 < s < 1).
func EloFromScore(s float64) float64 { return 400 * math.Log10(s/(1-s)) }

// FitRatings fits the ratings of players from results. Players met in a
// result but not listed are added after them. It is deterministic: the
// same players and results (in any order) give the same ratings.
func FitRatings(players []string, results []Result, opts RatingOptions) *Ratings {
	return fitRatings(players, slices.Values(results), opts)
}

// FitRecorded is FitRatings over the results a League recorded (see
// League.RecordedResults), made one at a time rather than all at once.
func FitRecorded(players []string, results ResultList, opts RatingOptions) *Ratings {
	return fitRatings(players, results.scores, opts)
}

// fitRatings reads the results twice, in the same order both times: once
// to count every player's games, once to file them in a pairTable.
func fitRatings(players []string, results iter.Seq[Result], opts RatingOptions) *Ratings {
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
	var firstOf []int32 // games per player as the lower index of its pair
	for res := range results {
		a, b, scoreA, ok := r.countedGame(res, opts, add)
		if !ok {
			continue
		}
		r.Games++
		r.Players[a].Games++
		r.Players[b].Games++
		r.Players[a].Score += scoreA
		r.Players[b].Score += 1 - scoreA
		for len(firstOf) <= a {
			firstOf = append(firstOf, 0)
		}
		firstOf[a]++
	}
	table := newPairTable(len(r.Players), firstOf)
	for res := range results {
		if a, b, scoreA, ok := r.countedGame(res, opts, add); ok {
			table.add(a, b, scoreA)
		}
	}
	table.sort()
	r.fit(table)
	r.Seat = r.fitSeat(results, opts)
	return r
}

// countedGame is a result as a game of the fit: its players' indexes, the
// lower first, and the first one's score; ok is false for a result the fit
// does not count.
func (r *Ratings) countedGame(res Result, opts RatingOptions, add func(string) int) (a, b int, scoreA float64, ok bool) {
	scoreA, ok = gameScore(res, opts)
	if !ok {
		return 0, 0, 0, false
	}
	a, b = add(res.PlayerA), add(res.PlayerB)
	if a == b {
		return 0, 0, 0, false
	}
	if a > b {
		a, b, scoreA = b, a, 1-scoreA
	}
	return a, b, scoreA, true
}

// pairTable is the fit's games, 4 bytes each, filed by the lower-indexed
// player of each pair and sorted by the other: games[start[a]:start[a+1]]
// are a's, each the other player's index << 2 | a's score in half points.
// A pair's games are then adjacent and the pairs in (a, b) order, which is
// the order the fit adds them up in. At 1,000 players a round robin has
// half a million games: 2 MB here, where a pair record per game took 16.
type pairTable struct {
	start []int32
	games []uint32
	next  []int32 // while filling: where a's next game goes
}

// newPairTable makes room for the games counted per lower-indexed player
// (firstOf may be shorter than players: the rest have none).
func newPairTable(players int, firstOf []int32) *pairTable {
	t := &pairTable{start: make([]int32, players+1)}
	for a, n := range firstOf {
		t.start[a+1] = n
	}
	for a := range players {
		t.start[a+1] += t.start[a]
	}
	t.games = make([]uint32, t.start[players])
	t.next = slices.Clone(t.start[:players])
	return t
}

// add files one game of a against b (a < b), a scoring scoreA.
func (t *pairTable) add(a, b int, scoreA float64) {
	t.games[t.next[a]] = uint32(b)<<2 | uint32(2*scoreA)
	t.next[a]++
}

// sort puts each player's games in the order of their opponents.
func (t *pairTable) sort() {
	t.next = nil
	for a := range len(t.start) - 1 {
		slices.Sort(t.games[t.start[a]:t.start[a+1]])
	}
}

// renumber maps the players to the fit's rows (to[i] for player i; every
// player with a game has a row, and the rows keep the players' order, so
// the games stay sorted).
func (t *pairTable) renumber(to []int, rows int) {
	start := make([]int32, rows+1)
	for i, row := range to {
		if row >= 0 {
			start[row+1] = t.start[i+1] - t.start[i]
		}
	}
	for row := range rows {
		start[row+1] += start[row]
	}
	for k, g := range t.games {
		t.games[k] = uint32(to[g>>2])<<2 | g&3
	}
	t.start = start
}

// pairs calls yield for every pair that played, in (a, b) order: a < b,
// n games between them, a scoring s of them. The sums are of whole and half
// points, exact in any order.
func (t *pairTable) pairs(yield func(a, b int, n, s float64)) {
	for a := range len(t.start) - 1 {
		games := t.games[t.start[a]:t.start[a+1]]
		for i := 0; i < len(games); {
			b, count, halves := games[i]>>2, 0, uint32(0)
			for ; i < len(games) && games[i]>>2 == b; i++ {
				count++
				halves += games[i] & 3
			}
			yield(a, int(b), float64(count), float64(halves)/2)
		}
	}
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
func (r *Ratings) fit(pairs *pairTable) {
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
	pairs.renumber(r.rated, n)
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
	// The information matrix is symmetric and its factor lower-triangular:
	// both are kept as lower triangles (4 MB each at 1,000 players),
	// reused by every step.
	info, factor := lowerMatrix(n), lowerMatrix(n)
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
		r.Players[i].CI95 = z95 * eloPerNatural * math.Sqrt(max(r.cov.at(k, k), 0))
	}
}

// informationMatrix writes the Fisher information at theta into info (its
// lower triangle: the matrix is symmetric) and
// subtracts every player's expected score from grad (which the caller then
// adds the actual scores to). With prior > 0 each player also plays prior
// games against a fixed opponent at 0. Without a prior the matrix is
// singular (only differences are identified), and 1/n is added to every
// entry, which fixes the mean and changes no difference.
func informationMatrix(theta []float64, pairs *pairTable, prior float64, grad []float64, info [][]float64) {
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
	pairs.pairs(func(a, b int, n, _ float64) {
		p := logistic(theta[a] - theta[b])
		w := n * p * (1 - p)
		grad[a] -= n * p
		grad[b] -= n * (1 - p)
		info[a][a] += w
		info[b][b] += w
		info[b][a] -= w // a < b: the lower triangle's
	})
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// centredCovariance inverts info (factor is room for its Cholesky factor,
// and then for the inverse's lower triangle, which is what the fit keeps:
// 4 MB at 1,000 players, where the whole matrix took 8) and returns the
// covariance of the ratings with their mean removed. filled says info had
// 1/n added to every entry, whose inverse then holds 1/n too, taken away.
func centredCovariance(info, factor [][]float64, filled bool) covariance {
	n := len(info)
	c := covariance{inv: invertLower(choleskyInto(info, factor)), filled: filled}
	if filled {
		return c
	}
	// C·inv·C with C = I - J/n.
	c.rowMean = make([]float64, n)
	for i := range n {
		for j := range n {
			c.rowMean[i] += c.symmetric(i, j)
		}
		c.all += c.rowMean[i]
		c.rowMean[i] /= float64(n)
	}
	c.all /= float64(n * n)
	return c
}

// covariance is the ratings' covariance matrix, kept as the lower triangle
// of the inverse information matrix and what centring it takes; at gives
// each entry as the whole centred matrix held it.
type covariance struct {
	inv     [][]float64 // lower triangle
	filled  bool        // 1/n to take from every entry
	rowMean []float64   // otherwise, C·inv·C with C = I - J/n: row means
	all     float64     // and the mean of all
}

// symmetric is entry (i, j) of the inverse, from its lower triangle.
func (c *covariance) symmetric(i, j int) float64 {
	if j > i {
		return c.inv[j][i]
	}
	return c.inv[i][j]
}

// at is entry (i, j) of the covariance.
func (c *covariance) at(i, j int) float64 {
	if c.filled {
		return c.symmetric(i, j) - 1/float64(len(c.inv))
	}
	return c.symmetric(i, j) + (c.all - c.rowMean[i] - c.rowMean[j]) // inv is symmetric: column means are row means
}

// linkedBothWays reports whether every player can be reached from every
// other along "scored at least a draw against" edges: the condition for a
// finite maximum likelihood.
func linkedBothWays(n int, pairs *pairTable) bool {
	return reachesAll(n, pairs, false) && reachesAll(n, pairs, true)
}

// reachesAll reports whether every player is reached from player 0 along
// "scored against" links (reversed: "was scored against by"). The links
// are one array of int32 indexed by player (a compressed adjacency list):
// at 1,000 players a round robin has a million of them, and a slice per
// player grown by append cost 24 MB a fit.
func reachesAll(n int, pairs *pairTable, reversed bool) bool {
	each := func(link func(from, to int)) {
		pairs.pairs(func(a, b int, games, s float64) {
			if reversed {
				a, b = b, a
			}
			if s > 0 { // a scored against b
				link(a, b)
			}
			if s < games {
				link(b, a)
			}
		})
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
