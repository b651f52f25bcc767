package engine

import (
	"fmt"
	"slices"
)

// Format names a league's format.
type Format string

// The formats. Each keeps league.v2 on the wire: a league is rounds of
// matches, each round announced and its matches assigned as before.
const (
	// FormatRoundRobin: every pair meets once (the default).
	FormatRoundRobin Format = "round-robin"
	// FormatDoubleRoundRobin: every pair meets twice, seats swapped; the
	// second cycle mirrors the first.
	FormatDoubleRoundRobin Format = "double-round-robin"
	// FormatSwiss: a fixed number of rounds, each paired within score
	// groups when the one before ends (see SwissRound).
	FormatSwiss Format = "swiss"
	// FormatGauntlet: the challengers play everyone else (and each
	// other), the others never meet.
	FormatGauntlet Format = "gauntlet"
)

// Formats lists the formats, the default first.
func Formats() []Format {
	return []Format{FormatRoundRobin, FormatDoubleRoundRobin, FormatSwiss, FormatGauntlet}
}

// FormatSpec is a league's format and its parameters, fixed when the
// league starts (journaled in league_started).
type FormatSpec struct {
	Format       Format   `json:"format"`
	Rounds       int      `json:"rounds,omitempty"`         // swiss: how many
	Challengers  []string `json:"challengers,omitempty"`    // gauntlet
	GamesPerPair int      `json:"games_per_pair,omitempty"` // round robins and gauntlet: cycles, seats alternating (default 1)
	// SPRT, for a gauntlet of one challenger against one opponent, plays
	// one game a round, seats alternating, until the test accepts a
	// hypothesis or MaxGames have been played.
	SPRT     *SPRT `json:"sprt,omitempty"`
	MaxGames int   `json:"max_games,omitempty"`
	// UntilSeparated plays, after the schedule, up to this many matches
	// more, one a round, each between the adjacent pair of the ranking
	// whose 95 % intervals overlap the most (see MostUnsure), and stops
	// when every adjacent pair is separated.
	UntilSeparated int `json:"until_separated,omitempty"`
	// UntilDecided is UntilSeparated that also stops for a pair shown
	// equivalent within EquivalenceMargin Elo (AdjacentPair.Equivalent):
	// it plays until every adjacent pair is separated or equivalent.
	UntilDecided      int     `json:"until_decided,omitempty"`
	EquivalenceMargin float64 `json:"equivalence_margin,omitempty"`
	// Place, with UntilSeparated, plays no schedule of its own: only
	// separating matches that involve this player, placing it among the
	// others (and the Prior games, a season's, when given).
	Place string       `json:"place,omitempty"`
	Prior []PriorGames `json:"prior,omitempty"`
}

// DefaultSPRTMaxGames bounds an SPRT gauntlet without --max-games.
const DefaultSPRTMaxGames = 10000

// maxGames is the SPRT's bound on games.
func (s FormatSpec) maxGames() int {
	if s.MaxGames > 0 {
		return s.MaxGames
	}
	return DefaultSPRTMaxGames
}

// DefaultEquivalenceMargin is --until-decided's margin without
// --equivalence-margin, in Elo: a 64 % expected score.
const DefaultEquivalenceMargin = 100

// extraMatches is how many matches may follow the schedule, one a round:
// --until-separated's or --until-decided's.
func (s FormatSpec) extraMatches() int { return s.UntilSeparated + s.UntilDecided }

// margin is the equivalence margin the adjacent pairs are judged with: 0
// (none) for --until-separated.
func (s FormatSpec) margin() float64 {
	if s.UntilDecided == 0 {
		return 0
	}
	if s.EquivalenceMargin > 0 {
		return s.EquivalenceMargin
	}
	return DefaultEquivalenceMargin
}

// games is how many times each pair meets.
func (s FormatSpec) games() int { return max(s.GamesPerPair, 1) }

// Schedule is the part of a league's schedule known when it starts: every
// round for the fixed formats, the first round for Swiss, whose later
// rounds depend on results. The second value is how many rounds the league
// will have in all.
func Schedule(spec FormatSpec, players []string, seed int64) ([]Round, int, error) {
	s, planned, err := makeSchedule(spec, players, seed)
	if err != nil {
		return nil, 0, err
	}
	return s.all(), planned, nil
}

// makeSchedule is Schedule, packed.
func makeSchedule(spec FormatSpec, players []string, seed int64) (*schedule, int, error) {
	if err := validatePlayers(players); err != nil {
		return nil, 0, err
	}
	if spec.UntilDecided > 0 && (spec.UntilSeparated > 0 || spec.SPRT != nil || spec.Place != "") {
		return nil, 0, fmt.Errorf("--until-decided goes with neither --until-separated, --sprt nor --place")
	}
	s := newSchedule(players)
	var first Round // the one round a dynamic format starts with
	var err error
	planned := 0
	switch {
	case spec.Place != "":
		err = validatePlace(spec, players)
	case spec.SPRT != nil:
		first, err = sprtRound(spec, players, 1)
		planned = spec.maxGames()
	case spec.Format == FormatRoundRobin || spec.Format == "":
		s.addCycles(spec.games())
	case spec.Format == FormatDoubleRoundRobin:
		s.addCycles(2 * spec.games())
	case spec.Format == FormatGauntlet:
		var rounds []Round
		rounds, err = gauntlet(players, spec.Challengers, spec.games())
		for _, r := range rounds {
			s.addRound(r)
		}
	case spec.Format == FormatSwiss:
		if err = CheckSwissRounds(len(players), spec.Rounds); err == nil {
			first, err = SwissRound(1, players, nil, nil, seed)
		}
		planned = spec.Rounds
	default:
		return nil, 0, fmt.Errorf("unknown format %q (known: %v)", spec.Format, Formats())
	}
	if err != nil {
		return nil, 0, err
	}
	if first.Number > 0 {
		s.addRound(first)
	}
	return s, max(planned, len(s.rounds)) + spec.extraMatches(), nil
}

// validatePlace checks a --place league: a player of the league, placed
// by separating matches alone.
func validatePlace(spec FormatSpec, players []string) error {
	switch {
	case spec.UntilSeparated < 1:
		return fmt.Errorf("--place needs --until-separated N: the matches that place the player")
	case spec.SPRT != nil || spec.Format != FormatRoundRobin && spec.Format != "":
		return fmt.Errorf("--place plays only separating matches: it takes no --format or --sprt")
	case !slices.Contains(players, spec.Place):
		return fmt.Errorf("--place %q is not a player of the league", spec.Place)
	}
	return nil
}

// sprtRound is game n (1-based) of an SPRT gauntlet: the challenger
// against the other player, seated first in odd games.
func sprtRound(spec FormatSpec, players []string, n int) (Round, error) {
	if spec.Format != FormatGauntlet || len(spec.Challengers) != 1 || len(players) != 2 || !slices.Contains(players, spec.Challengers[0]) {
		return Round{}, fmt.Errorf("--sprt needs a gauntlet of one challenger against one other player (have %d players, challengers %v)",
			len(players), spec.Challengers)
	}
	challenger := spec.Challengers[0]
	other := players[0]
	if other == challenger {
		other = players[1]
	}
	pair := [2]string{challenger, other}
	if n%2 == 0 {
		pair = [2]string{other, challenger}
	}
	return namedRound(n, [][2]string{pair}), nil
}

// CheckSwissRounds checks the number of rounds: at least 1, and few enough
// that every round can be paired without a rematch or a second bye (a
// player meets at most n-1 others).
func CheckSwissRounds(players, rounds int) error {
	limit := players - 1
	if players%2 == 1 {
		limit = players // one bye each, at most
	}
	if rounds < 1 || rounds > limit {
		return fmt.Errorf("a swiss league of %d players needs 1 to %d rounds (--rounds), got %d", players, limit, rounds)
	}
	return nil
}

// namedRound numbers a round's pairs of player ids as matches.
func namedRound(number int, pairs [][2]string) Round {
	r := Round{Number: number, Matches: make([]Pairing, len(pairs))}
	for k, p := range pairs {
		r.Matches[k] = Pairing{MatchID: MatchID(number, k+1), Round: number, PlayerA: p[0], PlayerB: p[1]}
	}
	return r
}

// gauntlet pairs every challenger with every other player, games times
// each with seats alternating (the challenger seated first in the first
// game), and packs the games into rounds in which nobody plays twice.
func gauntlet(players, challengers []string, games int) ([]Round, error) {
	if len(challengers) == 0 {
		return nil, fmt.Errorf("a gauntlet needs --challengers")
	}
	seen := map[string]bool{}
	for _, c := range challengers {
		if !slices.Contains(players, c) {
			return nil, fmt.Errorf("challenger %q is not a registered player", c)
		}
		if seen[c] {
			return nil, fmt.Errorf("challenger %q named twice", c)
		}
		seen[c] = true
	}
	var pairs [][2]string
	for g := range games {
		for i, c := range challengers {
			for _, p := range players {
				if p == c || (seen[p] && slices.Index(challengers, p) < i) {
					continue // challengers meet each other once per game
				}
				if g%2 == 1 {
					pairs = append(pairs, [2]string{p, c})
				} else {
					pairs = append(pairs, [2]string{c, p})
				}
			}
		}
	}
	return packRounds(pairs), nil
}

// packRounds puts each pair, in order, into the first round from its
// player's last game on in which neither player plays yet. A pair's games
// stay in order, and a round never holds a player twice.
func packRounds(pairs [][2]string) []Round {
	var rounds [][][2]string
	busy := []map[string]bool{}
	next := map[string]int{} // player -> first round it may play in
	for _, p := range pairs {
		r := max(next[p[0]], next[p[1]])
		for r < len(rounds) && (busy[r][p[0]] || busy[r][p[1]]) {
			r++
		}
		if r == len(rounds) {
			rounds = append(rounds, nil)
			busy = append(busy, map[string]bool{})
		}
		rounds[r] = append(rounds[r], p)
		busy[r][p[0]], busy[r][p[1]] = true, true
		next[p[0]], next[p[1]] = r+1, r+1
	}
	out := make([]Round, len(rounds))
	for i, pairs := range rounds {
		out[i] = namedRound(i+1, pairs)
	}
	return out
}
