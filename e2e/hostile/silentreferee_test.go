package hostile_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestSilentRefereeSuspended: a referee that holds the referee key, takes
// every match it is given and never reports is suspended once it has
// missed two matches in a row (--suspend-referee-after): the feed carries
// referee_suspended, which the console and --no-ui show, it is given no
// match after it, and every match goes to the league's real referee. The
// league completes with the match results, match files and standings of
// the same seed's league without the silent referee.
func TestSilentRefereeSuspended(t *testing.T) {
	t.Parallel()
	quiet, _ := silentRefereeLeague(t, false)
	l, silent := silentRefereeLeague(t, true)
	for _, league := range []*league{quiet, l} {
		if err := league.ctl.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	results, standings := finish(t, l, 0)
	quietResults, quietStandings := finish(t, quiet, 0)
	if !reflect.DeepEqual(results, quietResults) {
		t.Errorf("results differ from the same seed's league without the silent referee:\nwith    %+v\nwithout %+v", results, quietResults)
	}
	if !reflect.DeepEqual(standings, quietStandings) {
		t.Errorf("standings differ from the same seed's league without the silent referee:\nwith    %v\nwithout %v", standings, quietStandings)
	}
	if got, want := matchFileResults(t, l.dir), matchFileResults(t, quiet.dir); !reflect.DeepEqual(got, want) {
		t.Errorf("match files differ from the same seed's league without the silent referee:\nwith    %v\nwithout %v", got, want)
	}

	events, _ := leaguetest.NextEvents(t, l.ctl, 0, time.Minute, engine.EventLeagueCompleted)
	var suspensions []engine.Event
	given, givenAfter := 0, 0
	for _, ev := range events {
		switch {
		case ev.Kind == engine.EventRefereeSuspended:
			suspensions = append(suspensions, ev)
		case ev.Kind == engine.EventMatchAssigned && ev.Referee == silent.id && len(suspensions) == 0:
			given++
		case ev.Kind == engine.EventMatchAssigned && ev.Referee == silent.id:
			givenAfter++
		}
	}
	if len(suspensions) != 1 || suspensions[0].AgentID != silent.id ||
		!strings.Contains(suspensions[0].Detail, "suspended after 2 matches in a row without a report") {
		t.Fatalf("referee_suspended events %+v, want one for %s after 2 missed reports", suspensions, silent.id)
	}
	if given != 2 || givenAfter != 0 || silent.started.Load() != 2 {
		t.Errorf("%s was given %d matches before its suspension and %d after, and sent %d start_match; want 2, 0 and 2",
			silent.id, given, givenAfter, silent.started.Load())
	}
}

// silentReferee is a referee played by the test: admitted with the league's
// key, it accepts every start_match and reports nothing.
type silentReferee struct {
	id      string
	started atomic.Int32
}

// silentRefereeLeague is a real league waiting to start: a manager whose
// match deadline is a few seconds, a real referee and four seeded players
// (each its own process), plus, when silent is set, a silent referee
// registered second, so that every other match of a round is planned on it.
func silentRefereeLeague(t *testing.T, silent bool) (*league, *silentReferee) {
	t.Helper()
	l := &league{dir: t.TempDir()}
	l.manager = leaguetest.StartManager(t, l.dir, adminToken, "--seed", "41", "--retry-delay", "50ms", "--attempts", "1",
		"--join-timeout", "2s", "--move-timeout", "2s", "--generic-timeout", "2s", "--report-timeout", "2s",
		"--suspend-referee-after", "2")
	l.ctl = control.New(l.manager.Endpoint, adminToken)
	l.referees = append(l.referees, leaguetest.StartReferee(t, l.dir, l.manager.Endpoint, "REF01"))
	var ref *silentReferee
	if silent {
		ref = &silentReferee{}
		peer := leaguetest.NewPeer(t, func(r leaguetest.PeerRequest) (int, []byte) {
			result := map[string]any{"status": "ok"}
			if r.Method == "start_match" {
				ref.started.Add(1)
				result = map[string]any{"message_type": "START_MATCH_ACK", "status": "accepted"}
			}
			return http.StatusOK, leaguetest.ResultReply(r.ID, result)
		})
		reply := leaguetest.Call(t, l.manager.Endpoint, "register_referee", refereeRegistration(peer.Endpoint,
			map[string]any{"referee_key": leaguetest.RefereeKey, "match_tickets": true, "display_name": "silent"}))
		if ref.id = reply.String("referee_id"); reply.String("status") != "ACCEPTED" {
			t.Fatalf("the silent referee was not admitted: %s", reply.Body)
		}
	}
	for i, name := range []string{"P01", "P02", "P03", "P04"} {
		l.players = append(l.players, leaguetest.StartPlayer(t, l.dir, l.manager.Endpoint, name,
			"--strategy", "random", "--seed", fmt.Sprint(i+1)))
	}
	return l, ref
}

// matchFileResults is each match file's result, by match id.
func matchFileResults(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range leaguetest.ReadMatchFiles[protocol.MatchFile](t, dir, leagueID) {
		result, err := json.Marshal(f.Result)
		if err != nil {
			t.Fatal(err)
		}
		out[f.MatchID] = string(result)
	}
	return out
}
