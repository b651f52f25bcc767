package manager

import (
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
)

// ratingsCache holds the latest ratings fit. A fit costs O(players³): a
// millisecond at 100 players, over a second at 1,000 (BenchmarkFitRatings).
// So it is never done per result nor under the league's lock: a result
// asks for a fit, which runs in its own goroutine at most once per
// ratingsMinInterval and never more than a fifth of the time (the next fit
// waits four times as long as the last one took); readers get the latest
// fit and its matches_fitted says how far behind it is. A completed league
// is fitted as soon as league_completed is announced, and readers of a
// completed league wait for that fit: its ratings are final.
type ratingsCache struct {
	final   sync.Mutex // one final fit at a time; held while it runs
	mu      sync.Mutex
	fit     *ratingsFit
	busy    bool
	pending bool      // a request came while busy or too early
	next    time.Time // no fit starts before
}

// ratingsFit is one fit and the number of results it saw.
type ratingsFit struct {
	*engine.Ratings
	matches int
}

// ratingsMinInterval bounds how often the ratings are refitted while
// results come in.
const ratingsMinInterval = 500 * time.Millisecond

// ratingsNow returns the latest fit, asking for a new one when results
// came in since. With no fit yet it fits at once, so a league's first
// reader (a restarted manager's, say) sees ratings.
//
// A completed league's readers get its final fit, waiting for it if need
// be: the standings of a finished league do not change, and their ratings
// must not be those of before its last results.
func (m *Manager) ratingsNow() *ratingsFit {
	m.mu.Lock()
	done, _ := m.league.Progress()
	over := m.league.State == engine.LeagueCompleted
	m.mu.Unlock()
	f := m.latestRatings()
	switch {
	case f == nil:
		return m.fitRatings()
	case f.matches < done && over:
		return m.finalRatings()
	case f.matches < done:
		m.requestRatings()
	}
	return f
}

// latestRatings is the fit kept, nil before the first.
func (m *Manager) latestRatings() *ratingsFit {
	c := &m.ratings
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fit
}

// finalRatings fits every result of a completed league, once however many
// ask at the same time: those that come while the fit runs wait for it.
func (m *Manager) finalRatings() *ratingsFit {
	m.ratings.final.Lock()
	defer m.ratings.final.Unlock()
	m.mu.Lock()
	done, _ := m.league.Progress()
	m.mu.Unlock()
	if f := m.latestRatings(); f != nil && f.matches >= done {
		return f
	}
	return m.fitRatings()
}

// requestRatings starts a fit in the background, now or when the rate
// bound allows.
func (m *Manager) requestRatings() {
	c := &m.ratings
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy {
		c.pending = true
		return
	}
	if wait := time.Until(c.next); wait > 0 {
		if !c.pending {
			c.pending = true
			time.AfterFunc(wait, m.retryRatings)
		}
		return
	}
	c.busy, c.pending = true, false
	go func() {
		m.fitRatings()
		m.standingsChanged()
	}()
}

// retryRatings runs a request that had to wait.
func (m *Manager) retryRatings() {
	c := &m.ratings
	c.mu.Lock()
	if c.busy || !c.pending {
		c.mu.Unlock()
		return
	}
	c.pending = false
	c.mu.Unlock()
	m.requestRatings()
}

// fitRatings fits the league's results now and keeps the fit (unless a
// fit of more results was kept meanwhile).
func (m *Manager) fitRatings() *ratingsFit {
	m.mu.Lock()
	players, results := m.league.PlayerIDs(), m.league.RecordedResults()
	m.mu.Unlock()
	began := time.Now()
	f := &ratingsFit{Ratings: engine.FitRecorded(players, results, m.ratingOptions()), matches: results.Len()}
	took := time.Since(began)
	c := &m.ratings
	c.mu.Lock()
	if c.fit == nil || c.fit.matches <= f.matches {
		c.fit = f
	}
	kept, again := c.fit, c.pending
	c.busy, c.next = false, time.Now().Add(max(ratingsMinInterval, 4*took))
	c.mu.Unlock()
	if again {
		m.retryRatings()
	}
	return kept
}

func (m *Manager) ratingOptions() engine.RatingOptions {
	return engine.RatingOptions{ExcludeTechnical: m.opts.Config.Ratings.ExcludeTechnical}
}

// ratingsDoc is the standings document's ratings section, its players in
// the order of rows (the table's).
func (m *Manager) ratingsDoc(f *ratingsFit, rows []protocol.StandingRow) *protocol.RatingsDoc {
	if f == nil {
		return nil
	}
	return protocol.NewRatingsDoc(f.Ratings, f.matches, m.ratingOptions(), rows)
}

// serveLOS answers GET /los?player=ID: the likelihood that the player is
// stronger than each other player, in the table's order.
func (m *Manager) serveLOS(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("player")
	f := m.ratingsNow()
	if f == nil {
		http.Error(w, "no ratings yet", http.StatusNotFound)
		return
	}
	if _, ok := f.Rating(id); !ok {
		http.Error(w, "no such player", http.StatusNotFound)
		return
	}
	m.mu.Lock()
	rows := m.league.Table.Rows()
	m.mu.Unlock()
	doc := protocol.LOSDoc{PlayerID: id, MatchesFitted: f.matches, Versus: make([]protocol.LOSRow, 0, len(rows))}
	me, _ := f.Rating(id)
	for _, row := range rows {
		other, _ := f.Rating(row.PlayerID)
		if row.PlayerID == id || !other.Rated || !me.Rated {
			continue
		}
		doc.Versus = append(doc.Versus, protocol.LOSRow{PlayerID: row.PlayerID,
			EloDiff: round2(me.Elo - other.Elo), SE: round2(f.DifferenceSE(id, row.PlayerID)),
			LOS: round4(f.LOS(id, row.PlayerID))})
	}
	rpc.WriteJSON(w, http.StatusOK, doc)
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
