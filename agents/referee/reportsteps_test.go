package referee_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// stepsTally is a proxy between a referee and its manager that counts the
// steps each way brings: by MATCH_STEP, or inside the result reports. It
// loses the reply to the first report it forwards, so that the referee
// sends that report again to a manager that already has its result.
type stepsTally struct {
	manager      string
	mu           sync.Mutex
	stepMessages int                             // MATCH_STEP requests
	byStep       int                             // the steps they carried
	reported     map[string][]protocol.StepEntry // match -> the steps of its first report
	copies       map[string]int                  // match -> the reports of it
	lostReply    string                          // the match whose report's reply was lost
}

// wireRequest is what the tally reads of a request.
type wireRequest struct {
	Method string `json:"method"`
	Params struct {
		MatchID    string               `json:"match_id"`
		Steps      []protocol.StepEntry `json:"steps"`
		MatchSteps []protocol.StepEntry `json:"match_steps"`
	} `json:"params"`
}

func (s *stepsTally) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	resp, err := http.Post(s.manager, "application/json", bytes.NewReader(body))
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	reply, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if s.count(body) {
		w.WriteHeader(http.StatusBadGateway) // no body: the referee tries again
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(resp.StatusCode)
	w.Write(reply)
}

// count tallies a forwarded request and says whether to lose its reply.
func (s *stepsTally) count(body []byte) (loseReply bool) {
	var req wireRequest
	if json.Unmarshal(body, &req) != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch req.Method {
	case "report_match_step":
		s.stepMessages++
		s.byStep += len(req.Params.Steps)
	case "report_match_result":
		id := req.Params.MatchID
		if s.copies[id]++; s.copies[id] == 1 {
			s.reported[id] = req.Params.MatchSteps
		}
		if s.lostReply == "" {
			s.lostReply = id
			return true
		}
	}
	return false
}

// awaitResent waits, up to timeout, until the report whose reply was lost
// has been sent again.
func (s *stepsTally) awaitResent(timeout time.Duration) {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); {
		s.mu.Lock()
		resent := s.lostReply != "" && s.copies[s.lostReply] >= 2
		s.mu.Unlock()
		if resent {
			return
		}
		time.Sleep(10 * time.Millisecond) // a poll interval: the proxy's tally signals nothing
	}
}

// TestReportCarriesTheLastSteps runs a real manager, a real referee behind
// a counting proxy and built-in players. Each match shows on the feed with
// every step, in order and once, before its result; the steps still queued
// at the end of a match ride in its report, so MATCH_STEP goes at most once
// per batching window, not once per match; and the report the referee had
// to send twice brought its steps once.
func TestReportCarriesTheLastSteps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	timeouts := []string{"--retry-delay", "50ms", "--generic-timeout", "3s"}
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "5"}, timeouts...)...)
	tally := &stepsTally{manager: mgr.Endpoint, reported: map[string][]protocol.StepEntry{}, copies: map[string]int{}}
	proxy := httptest.NewServer(tally)
	t.Cleanup(proxy.Close)
	leaguetest.StartReferee(t, dir, proxy.URL+"/mcp", "REF01", append([]string{"--max-concurrent", "4"}, timeouts...)...)
	const players = 6
	for i := range players {
		leaguetest.StartPlayer(t, dir, mgr.Endpoint, fmt.Sprintf("p%d", i+1), "--strategy", "random", "--seed", fmt.Sprint(i+1))
	}

	ctl := control.New(mgr.Endpoint, adminToken)
	began := time.Now()
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	events, _ := leaguetest.NextEvents(t, ctl, 0, 2*time.Minute, engine.EventLeagueCompleted, engine.EventStopped)
	elapsed := time.Since(began)

	steps := map[string][]string{}
	fed, results := 0, 0
	for _, ev := range events {
		switch ev.Kind {
		case engine.EventMatchStep:
			steps[ev.MatchID] = append(steps[ev.MatchID], ev.Step)
			fed++
		case engine.EventMatchResult:
			results++
			got := steps[ev.MatchID]
			if len(got) != 4 || got[0] != "invited" || got[1] != "joined" || got[2] != "choosing" || !strings.HasPrefix(got[3], "drawn ") {
				t.Errorf("%s: steps before its result %q, want invited, joined, choosing, drawn N", ev.MatchID, got)
			}
		}
	}
	if want := players * (players - 1) / 2; results != want {
		t.Fatalf("%d results, want %d", results, want)
	}

	// The league may complete before the referee's retry of the report
	// whose reply was lost (it waits --retry-delay first): the manager had
	// that result already. Wait for the retry, bounded.
	tally.awaitResent(10 * time.Second)
	tally.mu.Lock()
	defer tally.mu.Unlock()
	carried := 0
	for _, s := range tally.reported {
		carried += len(s)
	}
	t.Logf("%d matches in %v: %d MATCH_STEP messages with %d steps, %d steps in reports",
		results, elapsed.Round(time.Millisecond), tally.stepMessages, tally.byStep, carried)
	if fed != tally.byStep+carried {
		t.Errorf("the feed has %d steps; MATCH_STEP brought %d and the reports %d", fed, tally.byStep, carried)
	}
	if carried == 0 {
		t.Error("no report carried a step")
	}
	// A window's timer sends at most one MATCH_STEP, and the next window
	// begins with a step posted after it.
	if most := int(elapsed/(100*time.Millisecond)) + 1; tally.stepMessages > most {
		t.Errorf("%d MATCH_STEP messages in %v, want at most one per batching window (%d)", tally.stepMessages, elapsed, most)
	}
	if tally.lostReply == "" || tally.copies[tally.lostReply] < 2 {
		t.Errorf("the report whose reply was lost (%q) was sent %d times, want it sent again", tally.lostReply, tally.copies[tally.lostReply])
	}
}
