package noui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestFollowPrintsSuspension: a stall and a suspension (of a referee, of a
// player) on the manager's feed are lines of their own in the --no-ui progress, between the results
// around them.
func TestFollowPrintsSuspension(t *testing.T) {
	pairing := engine.Pairing{MatchID: "R1M1", Round: 1, PlayerA: "P01", PlayerB: "P02"}
	result := &engine.Result{MatchID: "R1M1", Round: 1, PlayerA: "P01", PlayerB: "P02",
		Status: engine.StatusTechnicalLoss, Winner: "P01", Offenders: []string{"P02"}}
	events := []engine.Event{
		{Seq: 1, Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "P01", Role: engine.RolePlayer, Endpoint: "a"}},
		{Seq: 2, Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "P02", Role: engine.RolePlayer, Endpoint: "b"}},
		{Seq: 3, Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "REF01", Role: engine.RoleReferee, Endpoint: "c"}},
		{Seq: 4, Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "REF02", Role: engine.RoleReferee, Endpoint: "d"}},
		{Seq: 5, Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Players: []string{"P01", "P02"},
			LegacyRounds: []engine.Round{{Number: 1, Matches: []engine.Pairing{pairing}}}}},
		{Seq: 6, Kind: engine.EventStalled, MatchID: "R1M1", Referee: "REF01", Detail: "league stalled: no referee could take R1M1"},
		{Seq: 7, Kind: engine.EventRefereeSuspended, AgentID: "REF02",
			Detail: "referee REF02 suspended after 2 matches in a row without a report; its matches go to the other referees"},
		{Seq: 8, Kind: engine.EventMatchResult, MatchID: "R1M1", Result: result},
		{Seq: 9, Kind: engine.EventPlayerSuspended, AgentID: "P02", Detail: "P02 suspended after 1 technical losses in a row"},
		{Seq: 10, Kind: engine.EventLeagueCompleted},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/events" || r.URL.Query().Get("after") != "0" {
			http.Error(w, "one page only", http.StatusBadRequest)
			return
		}
		_ = json.NewEncoder(w).Encode(protocol.FeedPage{Events: events, LastSeq: 10})
	}))
	defer srv.Close()

	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := follow(ctx, control.New(srv.URL, ""), newProgress(&out, nil), nil); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"league started: 2 players, 1 round, 1 match",
		"league stalled: no referee could take R1M1",
		"referee REF02 suspended after 2 matches in a row without a report; its matches go to the other referees",
		"[1/1] R1M1 P01 vs P02: P01 wins, technical loss for [P02]",
		"P02 suspended after 1 technical losses in a row",
		"league completed",
	}
	if got := strings.Split(strings.TrimSpace(out.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress =\n%s\nwant\n%s", out.String(), strings.Join(want, "\n"))
	}
}

// TestFollowSecondInterruptStopsAtOnce: a first Ctrl-C pauses the league
// and waits for its running match; a second one ends the run at once,
// saying that match will be played again.
func TestFollowSecondInterruptStopsAtOnce(t *testing.T) {
	pairing := engine.Pairing{MatchID: "R1M1", Round: 1, PlayerA: "P01", PlayerB: "P02"}
	started := []engine.Event{
		{Seq: 1, Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Players: []string{"P01", "P02"},
			LegacyRounds: []engine.Round{{Number: 1, Matches: []engine.Pairing{pairing}}}}},
		{Seq: 2, Kind: engine.EventMatchAssigned, MatchID: "R1M1", Referee: "REF01"},
	}
	paused := make(chan struct{})            // closed when the manager is asked to pause
	waitingAfterPause := make(chan struct{}) // closed when the feed has shown the pause
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			close(paused)
			_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{"status": "paused"}})
			return
		}
		page := protocol.FeedPage{}
		switch r.URL.Query().Get("after") {
		case "0":
			page = protocol.FeedPage{Events: started, LastSeq: 2}
		case "2":
			select {
			case <-paused:
			case <-r.Context().Done():
				return
			}
			page = protocol.FeedPage{Events: []engine.Event{{Seq: 3, Kind: engine.EventPaused}}, LastSeq: 3}
		default: // the running match never ends
			close(waitingAfterPause)
			<-r.Context().Done()
			return
		}
		_ = json.NewEncoder(w).Encode(page)
	}))
	defer srv.Close()

	interrupts := make(chan os.Signal, 2)
	interrupts <- os.Interrupt
	var out bytes.Buffer
	done := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() {
		done <- follow(ctx, control.New(srv.URL, "adm"), newProgress(&out, nil), interrupts)
	}()
	select {
	case <-waitingAfterPause:
	case err := <-done:
		t.Fatalf("follow ended after one interrupt, with the match still running: %v", err)
	}
	interrupts <- os.Interrupt
	var stopped *InterruptedError
	if err := <-done; !errors.As(err, &stopped) || stopped.Drained || stopped.Running != 1 {
		t.Fatalf("follow returned %v, want an InterruptedError not drained with 1 running match", err)
	}
	if !strings.Contains(stopped.Error(), "stopped at once (running matches to play again: 1)") {
		t.Errorf("message %q does not say the league stopped at once", stopped.Error())
	}
}

// TestPrintStandingsMarksSuspended: the final table says which players were
// suspended, and nothing more for the others.
func TestPrintStandingsMarksSuspended(t *testing.T) {
	var out bytes.Buffer
	PrintStandings(&out, protocol.StandingsFile{LeagueID: "l", Standings: []protocol.StandingRow{
		{Rank: 1, PlayerID: "P01", DisplayName: "P01", Played: 1, Wins: 1, Points: 3},
		{Rank: 2, PlayerID: "P02", DisplayName: "P02", Played: 1, TechnicalLosses: 1, Status: engine.PlayerSuspended},
	}})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if last := lines[len(lines)-1]; !strings.HasSuffix(last, "  SUSPENDED") || !strings.Contains(last, "P02") {
		t.Errorf("P02's line %q does not end with SUSPENDED", last)
	}
	if strings.Contains(lines[len(lines)-2], "SUSPENDED") {
		t.Errorf("P01's line %q says SUSPENDED", lines[len(lines)-2])
	}
}

// TestPrintStandingsShowsRanksAndTies: each rated player's line ends with
// the ranks the fit allows it and its tie group, one number for a sure
// rank, and the seat advantage never reads "-0".
func TestPrintStandingsShowsRanksAndTies(t *testing.T) {
	var out bytes.Buffer
	PrintStandings(&out, protocol.StandingsFile{LeagueID: "l",
		Standings: []protocol.StandingRow{
			{Rank: 1, PlayerID: "P01", DisplayName: "P01", Played: 2, Wins: 2, Points: 6},
			{Rank: 2, PlayerID: "P02", DisplayName: "P02", Played: 2, Wins: 1, Losses: 1, Points: 3},
			{Rank: 3, PlayerID: "P03", DisplayName: "P03", Played: 2, Losses: 2}},
		Ratings: &protocol.RatingsDoc{Players: []protocol.RatingRow{
			{PlayerID: "P01", Elo: 300, CI95: 100, Games: 2, Rated: true, RankInterval: &[2]int{1, 1}, TieGroup: 1},
			{PlayerID: "P02", Elo: 0, CI95: 100, Games: 2, Rated: true, RankInterval: &[2]int{2, 3}, TieGroup: 2},
			{PlayerID: "P03", Elo: -30, CI95: 100, Games: 2, Rated: true, RankInterval: &[2]int{2, 3}, TieGroup: 2}},
			SeatAdvantage: &protocol.SeatAdvantage{Elo: -0.3, CI95: 40, Games: 3}}})
	want := map[string][2]string{"P01": {"1", "1"}, "P02": {"2-3", "2"}, "P03": {"2-3", "2"}}
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		if w, ok := want[f[1]]; ok {
			if got := [2]string{f[len(f)-2], f[len(f)-1]}; got != w {
				t.Errorf("%s: ranks and tie %v, want %v: %q", f[1], got, w, line)
			}
			delete(want, f[1])
		}
	}
	if len(want) > 0 {
		t.Errorf("no line for %v:\n%s", want, out.String())
	}
	if !strings.Contains(out.String(), "seat advantage: the first seat +0 ± 40 Elo over 3 games") {
		t.Errorf("the seat advantage line:\n%s", out.String())
	}
}
