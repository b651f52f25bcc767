package tui

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestStandingsShowRatingsAndLOS: with the manager's ratings in its
// standings document, the table has an "elo ±95%" column; v on a player
// asks the manager (GET /los) and shows that player's LOS over the others;
// v again goes back to the table.
func TestStandingsShowRatingsAndLOS(t *testing.T) {
	asked := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/los" {
			http.NotFound(w, r)
			return
		}
		asked <- r.URL.Query().Get("player")
		_ = json.NewEncoder(w).Encode(protocol.LOSDoc{PlayerID: r.URL.Query().Get("player"), MatchesFitted: 15,
			Versus: []protocol.LOSRow{{PlayerID: "P02", EloDiff: 61.2, SE: 92.7, LOS: 0.7441}, {PlayerID: "P03", EloDiff: 120, SE: 95, LOS: 0.8967}}})
	}))
	defer srv.Close()
	m := newTestModel(t, control.New(srv.URL, ""), t0)
	l := completedLeague(t)
	feed(m, l)
	sp := m.panes[paneStandings].(*standingsPane)
	done, _ := m.st.Progress()
	doc := protocol.StandingsFile{LeagueID: "league_2025_even_odd", Standings: m.st.Standings(), MatchesDone: done,
		Ratings: &protocol.RatingsDoc{MatchesFitted: done}}
	for i, row := range doc.Standings {
		doc.Ratings.Players = append(doc.Ratings.Players, protocol.RatingRow{PlayerID: row.PlayerID, Rated: true,
			Elo: float64(100 - 40*i), CI95: 150, Games: row.Played})
	}
	m.Update(standingsMsg{Doc: doc})
	screen := m.screen()
	if !strings.Contains(screen, "elo ±95%") || !strings.Contains(screen, " +100 ±150") || !strings.Contains(screen, " -100 ±150") {
		t.Fatalf("no ratings column:\n%s", screen)
	}
	first := sp.rows()[0].PlayerID
	msgs := runCmd(t, press(m, "v"))
	if len(msgs) != 1 {
		t.Fatalf("v gave %v", msgs)
	}
	if !strings.Contains(m.screen(), "Loading") {
		t.Errorf("LOS view while loading:\n%s", m.screen())
	}
	_, cmd := m.Update(msgs[0])
	for _, msg := range runCmd(t, cmd) {
		m.Update(msg)
	}
	if got := <-asked; got != first {
		t.Errorf("asked the LOS of %q, want the selected %q", got, first)
	}
	screen = m.screen()
	if !strings.Contains(screen, "LOS of "+first) || !strings.Contains(screen, "0.744") || !strings.Contains(screen, "0.897") {
		t.Fatalf("LOS view:\n%s", screen)
	}
	press(m, "v")
	if sp.los != nil || !strings.Contains(m.screen(), "elo ±95%") {
		t.Errorf("v again should go back to the table:\n%s", m.screen())
	}
}

// TestStandingsShowSPRT: an SPRT league's standings end with the LLR drawn
// between its bounds, the marker moving as the LLR does.
func TestStandingsShowSPRT(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, completedLeague(t))
	marker := func(llr float64) int {
		st := engine.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}.Status(0, 0, 0)
		st.LLR = llr
		m.Update(standingsMsg{Doc: protocol.StandingsFile{LeagueID: "league_2025_even_odd", SPRT: &st}})
		for _, line := range strings.Split(m.screen(), "\n") {
			if strings.Contains(line, "SPRT [0,10] llr") {
				return strings.Index(line, "●")
			}
		}
		t.Fatalf("no SPRT line:\n%s", m.screen())
		return 0
	}
	low, mid, high := marker(-2.9), marker(0), marker(2.9)
	if !(low < mid && mid < high) {
		t.Errorf("marker at %d, %d, %d for llr -2.9, 0, 2.9", low, mid, high)
	}
	if !strings.Contains(m.screen(), "-2.94") || !strings.Contains(m.screen(), "+2.94") {
		t.Errorf("bounds not shown:\n%s", m.screen())
	}
}
