package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Tiebreaker is one key that orders players tied on points, as a league
// file's scoring.tiebreakers names it.
type Tiebreaker string

// The tie-breakers, by the specification's names (scoring.tiebreakers:
// ["points", "wins", "draws"]) and the usual ones of round robins and Swiss
// tournaments.
const (
	// TiebreakPoints is the table's first key: listing it is allowed (the
	// specification's files list it first) and changes nothing.
	TiebreakPoints Tiebreaker = "points"
	// TiebreakWins is the number of wins, technical wins included.
	TiebreakWins Tiebreaker = "wins"
	// TiebreakDraws is the number of draws.
	TiebreakDraws Tiebreaker = "draws"
	// TiebreakHeadToHead is the points each of the players still tied won
	// in their games against each other (direct encounter). A cycle
	// (A beat B, B beat C, C beat A) leaves them tied, for the next key.
	TiebreakHeadToHead Tiebreaker = "head_to_head"
	// TiebreakSonnebornBerger is the sum over a player's games of the
	// opponent's points times the player's score in that game (1 a win,
	// ½ a draw, 0 a loss): the round robin's tie-breaker.
	TiebreakSonnebornBerger Tiebreaker = "sonneborn_berger"
	// TiebreakBuchholz is the sum of the opponents' points, an opponent
	// counted once per game played against it: the Swiss tie-breaker.
	TiebreakBuchholz Tiebreaker = "buchholz"
)

// knownTiebreakers are the names ParseTiebreakers accepts, in the order
// its error lists them.
var knownTiebreakers = []Tiebreaker{TiebreakPoints, TiebreakWins, TiebreakDraws,
	TiebreakHeadToHead, TiebreakSonnebornBerger, TiebreakBuchholz}

// tiebreakerAliases are other spellings, after lower-casing and turning
// '-' and ' ' into '_'.
var tiebreakerAliases = map[string]Tiebreaker{
	"h2h": TiebreakHeadToHead, "direct_encounter": TiebreakHeadToHead, "headtohead": TiebreakHeadToHead,
	"sb": TiebreakSonnebornBerger, "sonnebornberger": TiebreakSonnebornBerger, "sonneborn": TiebreakSonnebornBerger,
	"buchholz_score": TiebreakBuchholz, "win": TiebreakWins, "draw": TiebreakDraws,
}

// defaultTiebreakers is the order a table keeps with no tie-breakers given.
var defaultTiebreakers = []Tiebreaker{TiebreakWins, TiebreakDraws}

// KnownTiebreakers lists the tie-breakers' names.
func KnownTiebreakers() []string {
	names := make([]string, len(knownTiebreakers))
	for i, k := range knownTiebreakers {
		names[i] = string(k)
	}
	return names
}

// Tiebreakers is the order of the keys after points that break ties in a
// table, before the player id, which always comes last. The zero value is
// the default order, wins then draws. It is kept as the canonical names
// joined by commas, so that Scoring stays comparable; in JSON it is a list
// of names.
type Tiebreakers string

// ParseTiebreakers reads a league file's scoring.tiebreakers: names in any
// case, '-' or ' ' for '_', the aliases above. "points" and a name repeated
// are dropped (points always comes first; a key cannot separate players
// twice). A list that comes to the default order (wins, draws; the
// specification's ["points", "wins", "draws"]) is the zero value, so that
// such a league is journaled and shown exactly as one that names none. An
// unknown name is an error that names it and the known ones.
func ParseTiebreakers(names []string) (Tiebreakers, error) {
	var keys []Tiebreaker
	for _, name := range names {
		k, ok := lookupTiebreaker(name)
		if !ok {
			return "", fmt.Errorf("unknown tie-breaker %q (known: %s)", name, strings.Join(KnownTiebreakers(), ", "))
		}
		if k != TiebreakPoints && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 || slices.Equal(keys, defaultTiebreakers) {
		return "", nil
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = string(k)
	}
	return Tiebreakers(strings.Join(parts, ",")), nil
}

func lookupTiebreaker(name string) (Tiebreaker, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.NewReplacer("-", "_", " ", "_").Replace(n)
	if k := Tiebreaker(n); slices.Contains(knownTiebreakers, k) {
		return k, true
	}
	k, ok := tiebreakerAliases[n]
	return k, ok
}

// Keys are the keys after points, the default's included.
func (t Tiebreakers) Keys() []Tiebreaker {
	if t == "" {
		return slices.Clone(defaultTiebreakers)
	}
	var keys []Tiebreaker
	for part := range strings.SplitSeq(string(t), ",") {
		keys = append(keys, Tiebreaker(part))
	}
	return keys
}

// IsDefault reports whether t is the default order.
func (t Tiebreakers) IsDefault() bool { return t == "" }

// Legend is the whole order in words: "points, head-to-head, wins, then
// player id".
func (t Tiebreakers) Legend() string {
	words := []string{"points"}
	for _, k := range t.Keys() {
		words = append(words, k.Label())
	}
	return strings.Join(words, ", ") + ", then player id"
}

// Label is the key as a legend writes it.
func (k Tiebreaker) Label() string {
	switch k {
	case TiebreakHeadToHead:
		return "head-to-head"
	case TiebreakSonnebornBerger:
		return "Sonneborn-Berger"
	case TiebreakBuchholz:
		return "Buchholz"
	}
	return string(k)
}

// needsGames reports whether a key reads who played whom.
func (t Tiebreakers) needsGames() bool {
	return t != "" && (strings.Contains(string(t), string(TiebreakHeadToHead)) ||
		strings.Contains(string(t), string(TiebreakSonnebornBerger)) ||
		strings.Contains(string(t), string(TiebreakBuchholz)))
}

// MarshalJSON writes the list of names.
func (t Tiebreakers) MarshalJSON() ([]byte, error) {
	names := []string{}
	if t != "" {
		names = strings.Split(string(t), ",")
	}
	return json.Marshal(names)
}

// UnmarshalJSON reads a list of names as ParseTiebreakers does.
func (t *Tiebreakers) UnmarshalJSON(raw []byte) error {
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		return err
	}
	parsed, err := ParseTiebreakers(names)
	if err != nil {
		return err
	}
	*t = parsed
	return nil
}

// pairTally is what one player did against one opponent over their games.
type pairTally struct {
	games  int
	points int // league points the player won in them
	score2 int // the player's score in them, in half points: 2 a win, 1 a draw
}

// recordPair files one player's outcome against an opponent, for the keys
// that read who played whom.
func (t *Table) recordPair(player, opponent string, k outcomeKind) {
	if player == opponent {
		return
	}
	if t.games == nil {
		t.games = map[string]map[string]*pairTally{}
	}
	against := t.games[player]
	if against == nil {
		against = map[string]*pairTally{}
		t.games[player] = against
	}
	p := against[opponent]
	if p == nil {
		p = &pairTally{}
		against[opponent] = p
	}
	p.games++
	p.points += t.scoring.pointsFor(k)
	switch k {
	case won:
		p.score2 += 2
	case drew:
		p.score2++
	}
}

// sortByTiebreakers orders rows by points, then each key in turn among
// the players still tied, then player id. A key is worked out for a group
// of players tied on every key before it, which is what head-to-head needs
// (its value depends on who is tied).
func (t *Table) sortByTiebreakers(rows []Row, keys []Tiebreaker) {
	slices.SortFunc(rows, func(a, b Row) int {
		if c := b.Points - a.Points; c != 0 {
			return c
		}
		return strings.Compare(a.PlayerID, b.PlayerID)
	})
	groups := splitGroups(rows, func(r Row) int64 { return int64(r.Points) })
	for _, k := range keys {
		var next [][]Row
		for _, g := range groups {
			if len(g) < 2 {
				next = append(next, g)
				continue
			}
			value := t.keyValues(g, k)
			// Stable: within equal values the player id order stays.
			slices.SortStableFunc(g, func(a, b Row) int {
				va, vb := value[a.PlayerID], value[b.PlayerID]
				switch {
				case va > vb:
					return -1
				case va < vb:
					return 1
				}
				return 0
			})
			next = append(next, splitGroups(g, func(r Row) int64 { return value[r.PlayerID] })...)
		}
		groups = next
	}
}

// splitGroups cuts sorted rows into runs of equal value; the runs share
// rows' array, so sorting a run sorts rows.
func splitGroups(rows []Row, value func(Row) int64) [][]Row {
	var groups [][]Row
	start := 0
	for i := 1; i <= len(rows); i++ {
		if i == len(rows) || value(rows[i]) != value(rows[start]) {
			groups = append(groups, rows[start:i:i])
			start = i
		}
	}
	return groups
}

// keyValues is key k for each player of a tied group, larger better.
// Sonneborn-Berger is kept in half points so that it stays an integer.
func (t *Table) keyValues(group []Row, k Tiebreaker) map[string]int64 {
	value := make(map[string]int64, len(group))
	for _, r := range group {
		against := t.games[r.PlayerID]
		var v int64
		switch k {
		case TiebreakWins:
			v = int64(r.Wins)
		case TiebreakDraws:
			v = int64(r.Draws)
		case TiebreakHeadToHead:
			for _, o := range group {
				if p := against[o.PlayerID]; p != nil && o.PlayerID != r.PlayerID {
					v += int64(p.points)
				}
			}
		case TiebreakSonnebornBerger:
			for opp, p := range against {
				v += int64(p.score2) * int64(t.pointsOf(opp))
			}
		case TiebreakBuchholz:
			for opp, p := range against {
				v += int64(p.games) * int64(t.pointsOf(opp))
			}
		}
		value[r.PlayerID] = v
	}
	return value
}

func (t *Table) pointsOf(id string) int {
	if r := t.rows[id]; r != nil {
		return r.Points
	}
	return 0
}
