package referee

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// foreignManager is a manager of another implementation, on a real
// server: it registers a referee as REF01, with a manager_key only when
// key is set, lists no players (GET_PLAYERS publishes no endpoints), and
// counts the MATCH_STEPs it is sent, which it does not know (-32601).
func foreignManager(t *testing.T, key string) (*leaguetest.Peer, *atomic.Int64) {
	var steps atomic.Int64
	peer := leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		mt, _ := req.Params["message_type"].(string)
		reply := func(messageType string, extra map[string]any) (int, []byte) {
			msg := leaguetest.With(leaguetest.Envelope(messageType, "league_manager"), extra)
			msg["conversation_id"] = req.Params["conversation_id"]
			return 200, leaguetest.ResultReply(req.ID, msg)
		}
		switch mt {
		case protocol.TypeRefereeRegisterRequest:
			answer := map[string]any{"status": "ACCEPTED", "referee_id": "REF01", "auth_token": "tok-REF01",
				"league_id": "league_2025_even_odd"}
			if key != "" {
				answer["manager_key"] = key
			}
			return reply(protocol.TypeRefereeRegisterResponse, answer)
		case protocol.TypeLeagueQuery:
			return reply("LEAGUE_QUERY_RESPONSE", map[string]any{"query_type": req.Params["query_type"], "success": true,
				"data": map[string]any{"players": []any{}}})
		case protocol.TypeMatchStep:
			steps.Add(1)
		}
		return 200, leaguetest.ErrorReply(req.ID, protocol.CodeMethodNotFound, "Method not found: "+req.Method)
	})
	return peer, &steps
}

// startForeignReferee starts a referee, in this process on a free port,
// registered with a foreignManager; its stderr goes to stderr.
func startForeignReferee(t *testing.T, key string, stderr io.Writer) (*Referee, *atomic.Int64) {
	t.Helper()
	manager, steps := foreignManager(t, key)
	r, err := New(Options{Config: config.Default(), DataDir: t.TempDir(), ManagerURL: manager.Endpoint, Name: "REF01"})
	if err != nil {
		t.Fatal(err)
	}
	r.Stdout, r.Stderr = io.Discard, stderr
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Shutdown(context.Background()) })
	return r, steps
}

// TestNoStepsToAKeylessManager: a referee that its manager registered
// without a manager_key (another implementation's, which knows no
// MATCH_STEP and refuses each) sends it no step, by MATCH_STEP or in a
// report; the same referee under a manager that issued a key sends them.
func TestNoStepsToAKeylessManager(t *testing.T) {
	for _, tt := range []struct {
		key   string
		sends bool
	}{{"", false}, {"mgr-key-0123456789abcdef", true}} {
		r, steps := startForeignReferee(t, tt.key, io.Discard)
		if r.ManagerIssuedNoKey() != (tt.key == "") {
			t.Fatalf("manager key %q: ManagerIssuedNoKey %v", tt.key, r.ManagerIssuedNoKey())
		}
		r.steps.post(protocol.StepEntry{RoundID: 1, MatchID: "R1M1", Step: "invited"})
		r.steps.post(protocol.StepEntry{RoundID: 1, MatchID: "R1M2", Step: "invited"})
		carried := r.steps.take(context.Background(), "R1M1")
		r.steps.flush(context.Background()) // returns once the manager answered
		if sent := steps.Load() > 0 || len(carried) > 0; sent != tt.sends {
			t.Errorf("manager key %q: %d MATCH_STEPs sent and %d steps for the report, want steps sent: %v",
				tt.key, steps.Load(), len(carried), tt.sends)
		}
	}
}

// lines is a writer that hands on every write, for a test to wait on.
type lines struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	news chan struct{}
}

func (w *lines) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.news <- struct{}{}:
	default:
	}
	return w.buf.Write(p)
}

func (w *lines) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestSkippedAnnouncedMatchOnStderr: a referee under a manager of another
// implementation, given a match by the round announcement without the
// players' endpoints, which the manager does not publish either
// (GET_PLAYERS lists none) and no phone book has, skips it and says so on
// its stderr, which leaguetui copies to the agent's log, not only in its
// data folder.
func TestSkippedAnnouncedMatchOnStderr(t *testing.T) {
	stderr := &lines{news: make(chan struct{}, 1)}
	r, _ := startForeignReferee(t, "", stderr)
	msg := leaguetest.With(leaguetest.Envelope(protocol.TypeRoundAnnouncement, "league_manager"), map[string]any{
		"league_id": "league_2025_even_odd", "round_id": 1,
		"matches": []map[string]any{{"match_id": "R1M1", "game_type": "even_odd", "player_A_id": "P01", "player_B_id": "P02",
			"referee_id": "REF01"}}})
	if reply := leaguetest.Call(t, r.Endpoint(), "notify_round", msg); reply.Error != nil {
		t.Fatalf("notify_round: %+v", reply.Error)
	}
	const want = "announced match R1M1 not taken: no endpoint for P01 or P02"
	deadline := time.After(30 * time.Second)
	for !strings.Contains(stderr.String(), want) {
		select {
		case <-stderr.news:
		case <-deadline:
			t.Fatalf("stderr %q, want it to say %q", stderr.String(), want)
		}
	}
}
