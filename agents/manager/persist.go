package manager

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// Standings snapshots the standings document. Everything but sorting the
// table is O(1), so serving it and writing it cost the same however far the
// league has gone.
//
// The ratings are those of the fit kept, and for a completed league its
// final fit: the state is read with the table, and a league found
// completed there waits for the fit of all its results, even if it
// completed after ratingsNow looked.
func (m *Manager) Standings() protocol.StandingsFile {
	ratings := m.ratingsNow()
	m.mu.Lock()
	doc := protocol.NewStandingsFile(m.league)
	m.mu.Unlock()
	doc.LastUpdated = protocol.FormatTime(time.Now())
	if doc.State == engine.LeagueCompleted && (ratings == nil || ratings.matches < doc.MatchesDone) {
		ratings = m.finalRatings()
	}
	doc.Ratings = m.ratingsDoc(ratings, doc.Standings)
	return doc
}

// DefaultFileInterval is how long standings.json and rounds.json may lag
// the league while results come in. LEAGUETUI_STANDINGS_INTERVAL (a Go
// duration) overrides it, so a test can make the lag longer than the test.
const DefaultFileInterval = 250 * time.Millisecond

// openFiles starts the writers of standings.json and rounds.json. The
// journal is the durable record, written before a result is acknowledged;
// these two files are derived from it, so they are written from one
// goroutine each, at a bounded rate, and not once per result: a result
// costs the same in a league of 16 players or 1,000. A crash loses nothing
// (a restarted manager rebuilds them from the journal); the files lag the
// league by at most the interval, and are written at once at every round's
// end (standings), at the league's end and when the manager closes.
func (m *Manager) openFiles() {
	every := DefaultFileInterval
	if d, err := time.ParseDuration(os.Getenv("LEAGUETUI_STANDINGS_INTERVAL")); err == nil && d >= 0 {
		every = d
	}
	m.standingsFile = m.newFile(m.Layout().Standings(), every, store.IndentedJSON(func() any { return m.Standings() }))
	m.roundsFile = m.newFile(m.Layout().Rounds(), every, m.encodeRounds)
}

func (m *Manager) newFile(path string, every time.Duration, encode func(io.Writer) error) *store.Coalescer {
	return store.NewCoalescer(path, every, encode, func(err error) {
		// The journal is the record: a failed write is logged and healed by the next one.
		m.Log.Error("cannot write data file", "event_type", "DATA_WRITE_FAILED", "path", path, "err", err)
	})
}

// closeFiles writes what the files still lack and stops their writers.
func (m *Manager) closeFiles() {
	m.standingsFile.Close()
	m.roundsFile.Close()
}

// standingsChanged marks standings.json stale after a result: it is
// written within the interval, with every result that came in meanwhile.
func (m *Manager) standingsChanged() { m.standingsFile.Request() }

// writeStandings writes standings.json now (at a round's end and the
// league's), returning once it is written.
func (m *Manager) writeStandings() { m.standingsFile.Flush() }

// writeRounds writes rounds.json now once the league has completed, and
// otherwise only marks it stale: it lists every match of the league, so at
// a round's end a large league leaves it to the writer's bounded rate.
func (m *Manager) writeRounds() {
	m.mu.Lock()
	over := m.league.State == engine.LeagueCompleted
	m.mu.Unlock()
	if over {
		m.roundsFile.Flush()
		return
	}
	m.roundsFile.Request()
}

// Schedule snapshots the rounds document: every round's matches with their
// referee and result so far.
func (m *Manager) Schedule() protocol.RoundsFile {
	m.mu.Lock()
	doc := protocol.RoundsFile{SchemaVersion: protocol.FileSchemaVersion, LeagueID: m.league.ID, LastUpdated: protocol.FormatTime(time.Now()),
		Rounds: []protocol.RoundEntry{}}
	rounds := m.league.RoundCount()
	m.mu.Unlock()
	for i := range rounds {
		doc.Rounds = append(doc.Rounds, m.roundEntry(i+1))
	}
	return doc
}

// encodeRounds writes rounds.json one round at a time, holding m.mu for
// one round only: the file lists every match of the league (half a million
// for 1,000 players), and building it whole would put it in memory twice
// (the document and its JSON) at every write. It writes what json.MarshalIndent
// of Schedule() writes; each round is as it was when it was written.
func (m *Manager) encodeRounds(w io.Writer) error {
	m.mu.Lock()
	leagueID, rounds := m.league.ID, m.league.RoundCount()
	m.mu.Unlock()
	head, err := json.Marshal(leagueID)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "{\n  \"schema_version\": %q,\n  \"league_id\": %s,\n  \"rounds\": [", protocol.FileSchemaVersion, head); err != nil {
		return err
	}
	for i := range rounds {
		data, err := m.roundJSON(i + 1)
		if err != nil {
			return err
		}
		sep := ",\n    "
		if i == 0 {
			sep = "\n    "
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	tail := "\n  ]"
	if rounds == 0 {
		tail = "]"
	}
	_, err = fmt.Fprintf(w, "%s,\n  \"last_updated\": %q\n}\n", tail, protocol.FormatTime(time.Now()))
	return err
}

// doneRounds keeps the rounds.json text of the rounds that are done. A done
// round never changes again (its matches keep their results and referees,
// its status stays COMPLETED), so each write of rounds.json encodes only
// the rounds still being played, not every match of the league again. It
// keeps at most doneRoundsBudget bytes (all of a 64-player league's rounds,
// about 2,000 matches): the text of a larger league's later rounds is
// encoded at each write as before, so as not to hold the whole file in
// memory.
type doneRounds struct {
	mu    sync.Mutex
	text  [][]byte // by round - 1; nil: not kept
	bytes int      // kept in all
}

const doneRoundsBudget = 1 << 20

func (d *doneRounds) get(round int) []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	if round > len(d.text) {
		return nil
	}
	return d.text[round-1]
}

func (d *doneRounds) keep(round int, text []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bytes+len(text) > doneRoundsBudget {
		return
	}
	d.bytes += len(text)
	for len(d.text) < round {
		d.text = append(d.text, nil)
	}
	d.text[round-1] = text
}

// roundJSON is one round (1-based) of rounds.json as json.MarshalIndent
// writes it there, from doneRounds once the round is done.
func (m *Manager) roundJSON(round int) ([]byte, error) {
	if text := m.doneRounds.get(round); text != nil {
		return text, nil
	}
	entry := m.roundEntry(round)
	text, err := json.MarshalIndent(entry, "    ", "  ")
	if err == nil && entry.Status == roundCompleted {
		m.doneRounds.keep(round, text)
	}
	return text, err
}

// roundEntry snapshots one round (1-based) of rounds.json.
func (m *Manager) roundEntry(round int) protocol.RoundEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.league.Round(round)
	current := m.league.RoundsCompleted() + 1 // CurrentRound, in O(1)
	if current > m.league.RoundCount() {
		current = 0
	}
	entry := protocol.RoundEntry{RoundID: r.Number, Status: roundStatus(r.Number, current, m.league.RoundDone(r.Number))}
	for _, p := range r.Matches {
		rec, _ := m.league.Match(p.MatchID)
		me := protocol.MatchEntry{MatchID: p.MatchID, PlayerAID: p.PlayerA, PlayerBID: p.PlayerB, RefereeID: rec.Referee}
		if rec.Result != nil {
			me.Result = string(rec.Result.Status)
			if rec.Result.Winner != "" {
				w := rec.Result.Winner
				me.Winner = &w
			}
		}
		entry.Matches = append(entry.Matches, me)
	}
	return entry
}

// roundCompleted is the status of a round whose matches all have a result.
const roundCompleted = "COMPLETED"

func roundStatus(round, current int, done bool) string {
	switch {
	case done:
		return roundCompleted
	case round == current:
		return "IN_PROGRESS"
	}
	return "PENDING"
}

// leagueInfo snapshots league.json. Call with m.mu held.
func (m *Manager) leagueInfo() protocol.LeagueInfoFile {
	players, referees := m.league.Players(), m.league.Referees()
	for _, list := range [][]engine.AgentInfo{players, referees} {
		for i := range list {
			list[i] = list[i].Public() // league.json is for people: no secrets, not even hashed
		}
	}
	return protocol.LeagueInfoFile{SchemaVersion: protocol.FileSchemaVersion, LeagueID: m.league.ID,
		GameType: m.league.GameType, Seed: m.league.Seed, Players: players, Referees: referees,
		LastUpdated: protocol.FormatTime(time.Now())}
}

// writeFile writes a derived file. The journal is the record; a failed
// write is logged and healed by the next one.
func (m *Manager) writeFile(path string, v any) {
	if err := store.WriteJSON(path, v); err != nil {
		m.Log.Error("cannot write data file", "event_type", "DATA_WRITE_FAILED", "path", path, "err", err)
	}
}
