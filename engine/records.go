package engine

import (
	"iter"
	"strconv"
	"strings"
)

// What the league knows of each scheduled match is kept packed, in a slice
// per round beside the round's pairings, and found from the match id
// ("R<round>M<k>" names its place) rather than through a map: a league of
// 1,000 players has half a million matches, and a map entry, a record and
// a Result for each cost the manager over 100 MB. A packed match is 8
// bytes; a Result is made when someone asks for one.

// matchKey is a match's place in the schedule: 0-based round and board.
type matchKey struct{ round, board int32 }

// matchState is one match, packed.
type matchState struct {
	referee   int32 // 1 + index in League.names; 0 before assignment
	status    uint8 // a resultCode
	winner    uint8 // sideA, sideB, or 0
	offenders uint8 // sideA|sideB bits
}

// resultCode is how a packed match ended.
const (
	noResult      uint8 = iota
	resultWin           // StatusWin
	resultDraw          // StatusDraw
	resultTech          // StatusTechnicalLoss
	resultUnusual       // anything else: the whole Result is in League.unusual
)

// Seats, as bits of matchState.winner and offenders.
const (
	sideA uint8 = 1 << iota
	sideB
)

var statusCodes = map[Status]uint8{StatusWin: resultWin, StatusDraw: resultDraw, StatusTechnicalLoss: resultTech}

var statusOf = [...]Status{resultWin: StatusWin, resultDraw: StatusDraw, resultTech: StatusTechnicalLoss}

// packResult packs a result of pairing p (already compacted to share its
// strings), or reports that it does not fit: an unknown status, a winner
// or offender not in the match, offenders out of seat order or twice, a
// round other than the pairing's. Those are kept whole.
func packResult(r Result, p Pairing) (st matchState, ok bool) {
	side := func(id string) uint8 {
		switch id {
		case p.PlayerA:
			return sideA
		case p.PlayerB:
			return sideB
		}
		return 0
	}
	if st.status = statusCodes[r.Status]; st.status == noResult || r.Round != p.Round {
		return matchState{}, false
	}
	if r.Winner != "" {
		if st.winner = side(r.Winner); st.winner == 0 {
			return matchState{}, false
		}
	}
	for _, o := range r.Offenders {
		s := side(o)
		if s == 0 || s <= st.offenders { // unknown, repeated, or B before A
			return matchState{}, false
		}
		st.offenders |= s
	}
	return st, true
}

// result unpacks a packed result of pairing p.
func (st matchState) result(p Pairing) Result {
	r := Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: statusOf[st.status]}
	for _, s := range []struct {
		bit uint8
		id  string
	}{{sideA, p.PlayerA}, {sideB, p.PlayerB}} {
		if st.winner == s.bit {
			r.Winner = s.id
		}
		if st.offenders&s.bit != 0 {
			r.Offenders = append(r.Offenders, s.id)
		}
	}
	return r
}

// parseMatchID reads the place a match id names, if it is one of ours.
func parseMatchID(id string) (matchKey, bool) {
	rest, ok := strings.CutPrefix(id, "R")
	round, board, found := strings.Cut(rest, "M")
	if !ok || !found {
		return matchKey{}, false
	}
	r, err1 := strconv.ParseInt(round, 10, 32)
	k, err2 := strconv.ParseInt(board, 10, 32)
	if err1 != nil || err2 != nil || r < 1 || k < 1 {
		return matchKey{}, false
	}
	return matchKey{round: int32(r - 1), board: int32(k - 1)}, true
}

// find looks a match up by id.
func (l *League) find(id string) (matchKey, bool) { return l.sched.find(id) }

func (l *League) state(key matchKey) *matchState { return &l.states[key.round][key.board] }

// hasResult reports whether a match has its result.
func (l *League) hasResult(key matchKey) bool { return l.state(key).status != noResult }

// resultAt unpacks a match's result; ok is false before it has one.
func (l *League) resultAt(key matchKey) (Result, bool) {
	if !l.hasResult(key) {
		return Result{}, false
	}
	return l.resultOf(key, l.sched.pairing(key)), true
}

// resultOf unpacks the result of the match at key, which has one; p is
// its pairing, made by the caller, which may have it already.
func (l *League) resultOf(key matchKey, p Pairing) Result {
	st := *l.state(key)
	if st.status == resultUnusual {
		return *l.unusual[key]
	}
	return st.result(p)
}

// storeResult records a compacted result of the match at key.
func (l *League) storeResult(key matchKey, r Result) {
	st := l.state(key)
	packed, ok := packResult(r, l.sched.seating(key))
	if !ok {
		kept := r // only a result kept whole goes to the heap, not every one
		l.unusual[key] = &kept
		packed = matchState{status: resultUnusual}
	}
	packed.referee = st.referee
	*st = packed
}

// setReferee records who referees a match, as an index into the names the
// league holds (one copy of each referee's id, however many matches).
func (l *League) setReferee(key matchKey, id string) {
	i, ok := l.nameIndex[id]
	if !ok {
		l.names = append(l.names, id)
		i = int32(len(l.names))
		l.nameIndex[id] = i
	}
	l.state(key).referee = i
}

// refereeOf is a match's referee, "" before assignment.
func (l *League) refereeOf(key matchKey) string {
	if i := l.state(key).referee; i > 0 {
		return l.names[i-1]
	}
	return ""
}

// stepOf is a match's last step: "finished" once it has a result, the one
// given while it has none, "" before assignment.
func (l *League) stepOf(key matchKey) string {
	if l.hasResult(key) {
		return "finished"
	}
	return l.steps[key]
}

// record makes the public record of the match at key, whose id is id
// (the one it was found by: the schedule would format it again).
func (l *League) record(key matchKey, id string) MatchRecord {
	p := l.sched.seating(key)
	p.MatchID = id
	rec := MatchRecord{Pairing: p, Referee: l.refereeOf(key), Step: l.stepOf(key)}
	if l.hasResult(key) {
		r := l.resultOf(key, p) // on the heap only when there is one
		rec.Result = &r
	}
	return rec
}

// ResultList is a snapshot of the league's results in schedule order: one
// byte for each scheduled match (its packed outcome, 0 without a result),
// half a megabyte at 1,000 players; All makes each Result. Results never
// change once recorded, so a snapshot may be read without the league's
// guard.
type ResultList struct {
	sched    schedule // a snapshot
	outcomes []uint8  // every scheduled match, round after round: matchState.outcome()
	count    int
	unusual  map[matchKey]*Result // the results kept whole
}

// Len is the number of results.
func (rl ResultList) Len() int { return rl.count }

// All yields every result, in schedule order.
func (rl ResultList) All() iter.Seq[Result] { return rl.each(rl.sched.pairing) }

// scores yields every result in order, as the ratings fit reads them:
// without their match ids, which would be an allocation each.
func (rl ResultList) scores(yield func(Result) bool) { rl.each(rl.sched.seating)(yield) }

// each yields the results, each match's pairing made by pairing.
func (rl ResultList) each(pairing func(matchKey) Pairing) iter.Seq[Result] {
	return func(yield func(Result) bool) {
		at := 0
		for r, round := range rl.sched.rounds {
			for k := range round.seats {
				st := stateOf(rl.outcomes[at])
				at++
				key := matchKey{round: int32(r), board: int32(k)}
				var res Result
				switch st.status {
				case noResult:
					continue
				case resultUnusual:
					res = *rl.unusual[key]
				default:
					res = st.result(pairing(key))
				}
				if !yield(res) {
					return
				}
			}
		}
	}
}

// outcome packs how a match ended (its status, winner and offenders) in a
// byte, for ResultList.
func (st matchState) outcome() uint8 { return st.status | st.winner<<3 | st.offenders<<5 }

// stateOf unpacks an outcome.
func stateOf(outcome uint8) matchState {
	return matchState{status: outcome & 7, winner: outcome >> 3 & 3, offenders: outcome >> 5 & 3}
}
