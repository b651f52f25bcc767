package referee_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestPostedBackAnswersAuthenticated: a player that answers with a bare
// acknowledgement and posts its join and its moves back later is the only
// one whose posted answers the referee takes. Before each of its posts,
// its opponent (who holds a ticket of its own for the same match) posts in
// its name a refusal to join, or the other move: without auth_token, with
// the victim's own league token, with the opponent's ticket, and as
// GAME_MOVE_RESPONSE. Every one is refused (E011, E012) and changes
// nothing: the league ends with the standings and match results of the
// same seed's league without the attacker.
func TestPostedBackAnswersAuthenticated(t *testing.T) {
	t.Parallel()
	var attacked, plain postBackOutcome
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); attacked = postBackLeague(t, true) }()
	go func() { defer wg.Done(); plain = postBackLeague(t, false) }()
	wg.Wait()
	if t.Failed() {
		return
	}
	if want := 2 * (3 + 4); attacked.refused != want {
		t.Errorf("%d forged answers refused, want %d (3 joins and 4 moves in each of the victim's 2 matches)", attacked.refused, want)
	}
	if !reflect.DeepEqual(attacked.standings, plain.standings) {
		t.Errorf("standings with the attacker:\n%+v\nwithout:\n%+v", attacked.standings, plain.standings)
	}
	if !reflect.DeepEqual(attacked.results, plain.results) {
		t.Errorf("match results with the attacker:\n%v\nwithout:\n%v", attacked.results, plain.results)
	}
}

// postBackOutcome is what a league of TestPostedBackAnswersAuthenticated
// ended with.
type postBackOutcome struct {
	standings []protocol.StandingRow
	results   map[string]string // match id -> its result in the match file, as JSON
	refused   int               // forged answers refused with the code expected
}

// postBackLeague plays a league of a victim that posts its answers back,
// an opponent that answers inline and a built-in player, the opponent
// forging the victim's answers first when attack is set.
func postBackLeague(t *testing.T, attack bool) postBackOutcome {
	dir := t.TempDir()
	timeouts := []string{"--join-timeout", "3s", "--move-timeout", moveTimeout.String(), "--retry-delay", "50ms", "--generic-timeout", "3s"}
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "11"}, timeouts...)...)
	ref := leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", timeouts...)
	victim, opponent := newVariantPlayer(t, styleAsync), newVariantPlayer(t, styleBare)
	victim.refereeURL = ref.Endpoint
	victim.register(t, mgr.Endpoint, 1)
	opponent.register(t, mgr.Endpoint, 2)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "builtin", "--strategy", "counter", "--seed", "5")

	var out postBackOutcome
	var mu sync.Mutex
	if attack {
		victim.beforePost = func(method string, answer map[string]any) {
			for _, forged := range forgeries(victim, opponent, answer) {
				code := postForged(ref.Endpoint, method, forged.answer)
				mu.Lock()
				if code == forged.want {
					out.refused++
				} else {
					t.Errorf("%s posted in %s's name for %v (%s): answered %q, want refused with %s",
						forged.answer["message_type"], victim.id, answer["match_id"], forged.what, code, forged.want)
				}
				mu.Unlock()
			}
		}
	}

	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	events := leaguetest.UntilCompleted(t, ctl, 0, 2*time.Minute)
	for _, ev := range events {
		if ev.Kind == engine.EventMatchResult && ev.Result.Status == engine.StatusTechnicalLoss {
			t.Errorf("%s: technical loss for %v", ev.MatchID, ev.Result.Offenders)
		}
	}
	victim.mu.Lock()
	if len(victim.problems) > 0 || victim.callbacks != 4 {
		t.Errorf("the victim's own posts: %d taken, want 4; problems %v", victim.callbacks, victim.problems)
	}
	victim.mu.Unlock()
	standings, err := ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out.standings = standings.Standings
	out.results = map[string]string{}
	for _, f := range leaguetest.ReadMatchFiles[protocol.MatchFile](t, dir, config.Default().LeagueID) {
		result, _ := json.Marshal(f.Result)
		out.results[f.MatchID] = string(result)
	}
	return out
}

// forgery is an answer posted in another player's name, and the error
// code it must be refused with.
type forgery struct {
	what   string
	answer map[string]any
	want   string
}

// forgeries are the answers the opponent posts in the victim's name in
// place of answer: the opposite of what the victim answers, with every
// auth_token but the victim's ticket.
func forgeries(victim, opponent *variantPlayer, answer map[string]any) []forgery {
	matchID, _ := answer["match_id"].(string)
	forged := maps.Clone(answer)
	if answer["message_type"] == "GAME_JOIN_ACK" {
		forged["accept"] = false
	} else {
		forged["parity_choice"] = map[any]string{"even": "odd", "odd": "even"}[answer["parity_choice"]]
	}
	with := func(token string) map[string]any {
		f := maps.Clone(forged)
		if token == "" {
			delete(f, "auth_token")
		} else {
			f["auth_token"] = token
		}
		return f
	}
	victim.mu.Lock()
	ownToken := victim.token
	victim.mu.Unlock()
	ticket := opponentTicket(opponent, matchID)
	out := []forgery{
		{"without auth_token", with(""), protocol.CodeAuthTokenMissing},
		{"with the victim's own league token", with(ownToken), protocol.CodeAuthTokenInvalid},
		{"with the opponent's match ticket", with(ticket), protocol.CodeAuthTokenInvalid},
	}
	if answer["message_type"] == "CHOOSE_PARITY_RESPONSE" {
		move := with(ticket)
		move["message_type"] = "GAME_MOVE_RESPONSE"
		move["move_data"] = map[string]any{"move_type": "choose_parity", "choice": move["parity_choice"]}
		delete(move, "parity_choice")
		out = append(out, forgery{"as GAME_MOVE_RESPONSE with the opponent's ticket", move, protocol.CodeAuthTokenInvalid})
	}
	return out
}

// opponentTicket is the ticket the opponent was sent for matchID, waited
// for a while (its invitation goes out with the victim's); when the
// opponent does not play that match, a ticket it has of another, or one
// made up.
func opponentTicket(opponent *variantPlayer, matchID string) string {
	for range 50 {
		opponent.mu.Lock()
		ticket, ok := opponent.tickets[matchID]
		opponent.mu.Unlock()
		if ok {
			return ticket
		}
		time.Sleep(10 * time.Millisecond) // the invitation has no event to wait on
	}
	opponent.mu.Lock()
	defer opponent.mu.Unlock()
	for _, ticket := range opponent.tickets {
		return ticket
	}
	return "mt-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
}

// postForged posts a forged answer to the referee and returns the league
// error code it was refused with, or what else came back.
func postForged(refereeURL, method string, answer map[string]any) string {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": answer, "id": 7})
	resp, err := http.Post(refereeURL, "application/json", bytes.NewReader(body))
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	var reply struct {
		Result map[string]any `json:"result"`
		Error  *struct {
			Data map[string]any `json:"data"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		return err.Error()
	}
	if reply.Error != nil {
		return fmt.Sprint(reply.Error.Data["error_code"])
	}
	if reply.Result["message_type"] == "LEAGUE_ERROR" {
		return fmt.Sprint(reply.Result["error_code"])
	}
	return fmt.Sprintf("accepted: %v", reply.Result)
}
