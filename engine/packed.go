package engine

import (
	"maps"
	"slices"
	"strconv"
)

// A league's schedule is kept packed: each match is its two players'
// indexes in the schedule's list of players, 8 bytes, where a Pairing, its
// strings and its match id took some 64. A round robin of 1,000 players
// has half a million matches: 4 MB packed, 30 MB as Pairings. A match's id
// and round follow from its place ("R<round>M<k>"); the few that do not
// (an older journal's, a test's) are kept whole in odd. Pairings are made
// when someone asks for them.

// seats is one match, packed: the players' indexes, the one seated first
// (PlayerA) first.
type seats struct{ a, b int32 }

// packedRound is one round, packed. Its seats are never changed once the
// round is made, so schedules may share them.
type packedRound struct {
	number int
	seats  []seats
}

// schedule is the rounds of a league, packed.
type schedule struct {
	players  []string         // by index
	index    map[string]int32 // id -> index in players
	rounds   []packedRound
	odd      map[matchKey]Pairing // matches whose id or round is not the one their place gives
	otherIDs map[string]matchKey  // the places of the odd matches, by id
}

// newSchedule is an empty schedule over players (more are added as
// rounds name them).
func newSchedule(players []string) *schedule {
	s := &schedule{index: make(map[string]int32, len(players)), odd: map[matchKey]Pairing{}, otherIDs: map[string]matchKey{}}
	for _, id := range players {
		s.indexOf(id)
	}
	return s
}

// indexOf is a player's index, the player added if new.
func (s *schedule) indexOf(id string) int32 {
	i, ok := s.index[id]
	if !ok {
		i = int32(len(s.players))
		s.players = append(s.players, id)
		s.index[id] = i
	}
	return i
}

// clone is a copy that may be added to without changing s: the rounds'
// seats are shared, the rest is its own.
func (s *schedule) clone() schedule {
	return schedule{players: slices.Clip(s.players), index: maps.Clone(s.index), rounds: slices.Clip(s.rounds),
		odd: maps.Clone(s.odd), otherIDs: maps.Clone(s.otherIDs)}
}

// snapshot is a copy for reading without the league's guard while the
// league goes on adding to s: what it reads of s is never changed.
func (s *schedule) snapshot() schedule {
	out := schedule{players: slices.Clip(s.players), rounds: slices.Clip(s.rounds)}
	if len(s.odd) > 0 {
		out.odd = maps.Clone(s.odd)
	}
	return out
}

// addSeats adds round number, packed.
func (s *schedule) addSeats(number int, matches []seats) {
	s.rounds = append(s.rounds, packedRound{number: number, seats: matches})
}

// addRound packs a round and adds it.
func (s *schedule) addRound(r Round) {
	place := int32(len(s.rounds))
	matches := make([]seats, len(r.Matches))
	for k, p := range r.Matches {
		matches[k] = seats{a: s.indexOf(p.PlayerA), b: s.indexOf(p.PlayerB)}
		if p.Round != r.Number || p.MatchID != MatchID(r.Number, k+1) || int(place) != r.Number-1 {
			key := matchKey{round: place, board: int32(k)}
			s.odd[key] = p
			s.otherIDs[p.MatchID] = key
		}
	}
	s.addSeats(r.Number, matches)
}

// has reports whether key is the place of a match.
func (s *schedule) has(key matchKey) bool {
	return key.round >= 0 && int(key.round) < len(s.rounds) && key.board >= 0 && int(key.board) < len(s.rounds[key.round].seats)
}

// seating is the match at key (which must be one) without its match id,
// which is not stored but formatted: what needs only the players and the
// round is spared an allocation.
func (s *schedule) seating(key matchKey) Pairing {
	if p, ok := s.odd[key]; ok {
		p.MatchID = ""
		return p
	}
	r := &s.rounds[key.round]
	st := r.seats[key.board]
	return Pairing{Round: r.number, PlayerA: s.players[st.a], PlayerB: s.players[st.b]}
}

// pairing is the match at key (which must be one).
func (s *schedule) pairing(key matchKey) Pairing {
	p := s.seating(key)
	p.MatchID = s.matchID(key)
	return p
}

// matchID is the id of the match at key (which must be one).
func (s *schedule) matchID(key matchKey) string {
	if p, ok := s.odd[key]; ok {
		return p.MatchID
	}
	return MatchID(s.rounds[key.round].number, int(key.board)+1)
}

// find looks a match up by id: at the place the id names, or, for an id
// of another form, among the odd matches. Either way the match found has
// id for its id (League.record relies on it).
func (s *schedule) find(id string) (matchKey, bool) {
	if key, ok := parseMatchID(id); ok && s.has(key) {
		if _, odd := s.odd[key]; !odd && s.rounds[key.round].number == int(key.round)+1 && isMatchID(id, key) {
			return key, true
		}
	}
	key, ok := s.otherIDs[id]
	return key, ok
}

// isMatchID reports whether id is the id MatchID gives the place key,
// without formatting one (find runs for every event of every match).
func isMatchID(id string, key matchKey) bool {
	var buf [24]byte
	b := append(buf[:0], 'R')
	b = strconv.AppendInt(b, int64(key.round)+1, 10)
	b = append(b, 'M')
	b = strconv.AppendInt(b, int64(key.board)+1, 10)
	return string(b) == id
}

// round is round i (0-based) unpacked.
func (s *schedule) round(i int) Round {
	r := Round{Number: s.rounds[i].number, Matches: make([]Pairing, len(s.rounds[i].seats))}
	for k := range r.Matches {
		r.Matches[k] = s.pairing(matchKey{round: int32(i), board: int32(k)})
	}
	return r
}

// all is every round unpacked.
func (s *schedule) all() []Round {
	out := make([]Round, len(s.rounds))
	for i := range out {
		out[i] = s.round(i)
	}
	return out
}
