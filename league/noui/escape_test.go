package noui

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestNoUIEscapesNetworkStrings: a manager (here a hostile one) whose feed
// and standings carry escape sequences and line breaks in ids, names and
// details cannot clear the terminal, set its title or print a line of its
// own through --no-ui: every string is shown escaped.
func TestNoUIEscapesNetworkStrings(t *testing.T) {
	const (
		clear  = "\x1b[2J\x1b[H"
		title  = "\x1b]0;pwned\x07"
		inject = "\nFAKE: P01 disqualified"
	)
	evil := "P02" + clear
	pairing := engine.Pairing{MatchID: "R1M1" + title, Round: 1, PlayerA: "P01", PlayerB: evil}
	result := &engine.Result{MatchID: pairing.MatchID, Round: 1, PlayerA: "P01", PlayerB: evil,
		Status: engine.StatusTechnicalLoss, Winner: "P01", Offenders: []string{evil}}
	events := []engine.Event{
		{Seq: 1, Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "P01", Role: engine.RolePlayer, Endpoint: "a"}},
		{Seq: 2, Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: evil, Role: engine.RolePlayer, Endpoint: "b"}},
		{Seq: 3, Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Players: []string{"P01", evil},
			LegacyRounds: []engine.Round{{Number: 1, Matches: []engine.Pairing{pairing}}}}},
		{Seq: 4, Kind: engine.EventMatchResult, MatchID: pairing.MatchID, Result: result},
		{Seq: 5, Kind: engine.EventPlayerSuspended, AgentID: evil, Detail: "P02 suspended" + inject},
		{Seq: 6, Kind: engine.EventLeagueCompleted},
	}
	standings := protocol.StandingsFile{LeagueID: "L1" + title, State: engine.LeagueCompleted,
		Standings: []protocol.StandingRow{{Rank: 1, PlayerID: "P01", DisplayName: "Alpha" + inject + "\u202e"},
			{Rank: 2, PlayerID: evil, DisplayName: "\xff\xfe"}}} // JSON makes these U+FFFD
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/events":
			_ = json.NewEncoder(w).Encode(protocol.FeedPage{Events: events, LastSeq: 6})
		case "/standings":
			_ = json.NewEncoder(w).Encode(standings)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := control.New(srv.URL, "")
	if err := follow(ctx, c, newProgress(&out, nil), nil); err != nil {
		t.Fatal(err)
	}
	doc, err := c.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	PrintStandings(&out, doc)

	printed := out.String()
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\xff", "\nFAKE"} {
		if strings.Contains(printed, bad) {
			t.Errorf("--no-ui printed %q raw:\n%s", bad, printed)
		}
	}
	for _, want := range []string{
		`[1/1] R1M1\x1b]0;pwned\x07 P01 vs P02\x1b[2J\x1b[H: P01 wins`,
		`P02 suspended\nFAKE: P01 disqualified`,
		`league L1\x1b]0;pwned\x07`,
		`Alpha\nFAKE: P01 disqualified\u202e`,
	} {
		if !strings.Contains(printed, want) {
			t.Errorf("--no-ui output lacks %q:\n%s", want, printed)
		}
	}
}
