package manager_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// floodSize is how many players register at once.
const floodSize = 1000

// flooded is what one registration of the flood sent and got back.
type flooded struct {
	endpoint string
	reply    leaguetest.Reply
	err      error
}

func (f flooded) token() string { return f.reply.String("auth_token") }

// TestRegistrationFlood registers 1,000 players at once with a real
// manager process, each from its own endpoint, and checks the registry:
// every one accepted, ids P01…P1000 each given once, tokens all distinct
// and each good for its own id only; then restarts the manager on the same
// data folder and checks that the journal gives back the same registry.
func TestRegistrationFlood(t *testing.T) {
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "3")
	// One fake peer stands for every player: the manager's tools/list probe
	// gets "method not found" at once, so the flood waits on nothing else.
	peer := ackingPeer(t, nil, nil)

	results, elapsed, slowest := flood(t, mgr.Endpoint, peer.Server.URL)
	t.Logf("%d registrations at once: all answered in %s; slowest GET /health during the flood %s",
		floodSize, elapsed.Round(time.Millisecond), slowest.Round(time.Millisecond))

	byID := checkFlood(t, results)
	registry := players(t, mgr.Endpoint, "P01", byID["P01"].token())
	if len(registry) != floodSize {
		t.Fatalf("GET_PLAYERS lists %d players, want %d", len(registry), floodSize)
	}
	for id, f := range byID {
		if registry[id] != f.endpoint {
			t.Errorf("%s is at %q in the registry, but registered from %q", id, registry[id], f.endpoint)
		}
	}
	checkOwnTokensOnly(t, mgr.Endpoint, byID, "P01", "P02", "P99", "P100", "P500", "P999", "P1000")
	before := standingsOf(t, mgr.Endpoint)

	if err := mgr.Stop(10 * time.Second); err != nil {
		t.Fatalf("stopping the manager (pid %d): %v", mgr.PID(), err)
	}
	checkJournal(t, store.Layout{Root: dir, LeagueID: "league_2025_even_odd"}.Journal(), byID)

	again := leaguetest.StartManager(t, dir, adminToken, "--seed", "3")
	if after := players(t, again.Endpoint, "P01", byID["P01"].token()); !maps.Equal(registry, after) {
		t.Errorf("the restarted manager's registry differs from the one before the restart")
	}
	if after := standingsOf(t, again.Endpoint); !reflect.DeepEqual(before, after) {
		t.Errorf("standings before the restart %+v, after %+v", before, after)
	}
	checkAllTokens(t, again.Endpoint, byID)
}

// flood sends floodSize registrations at once and returns them, with how
// long all took and the slowest GET /health answered meanwhile.
func flood(t *testing.T, managerURL, peerBase string) ([]flooded, time.Duration, time.Duration) {
	t.Helper()
	results := make([]flooded, floodSize)
	begin := make(chan struct{})
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			endpoint := fmt.Sprintf("%s/flood/%04d/mcp", peerBase, i+1)
			body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "register_player", "id": i + 1,
				"params": registration("player", endpoint, map[string]any{"display_name": fmt.Sprintf("flood %d", i+1)})})
			<-begin
			results[i] = flooded{endpoint: endpoint}
			if err == nil {
				results[i].reply, err = post(managerURL, body)
			}
			results[i].err = err
		}()
	}
	done := make(chan struct{})
	slowest := make(chan time.Duration, 1)
	go func() { slowest <- healthLatency(managerURL, done) }()
	start := time.Now()
	close(begin)
	wg.Wait()
	elapsed := time.Since(start)
	close(done)
	return results, elapsed, <-slowest
}

// healthLatency asks the manager's /health, one request after the other,
// until done, and returns the slowest answer: a measure of how responsive
// the manager stays, reported and not asserted.
func healthLatency(managerURL string, done <-chan struct{}) time.Duration {
	ctl := control.New(managerURL, "")
	var slowest time.Duration
	for {
		select {
		case <-done:
			return slowest
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		began := time.Now()
		_, err := ctl.Health(ctx)
		cancel()
		if err != nil {
			return -1
		}
		slowest = max(slowest, time.Since(began))
	}
}

// post is leaguetest.Post returning its failure, for goroutines other
// than the test's.
func post(url string, body []byte) (leaguetest.Reply, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return leaguetest.Reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return leaguetest.Reply{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return leaguetest.Reply{}, err
	}
	reply := leaguetest.Reply{Status: resp.StatusCode, Body: raw}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return reply, fmt.Errorf("reply is not JSON-RPC: %v: %s", err, raw)
	}
	return reply, nil
}

// checkFlood requires every registration accepted with its own id and token,
// the ids exactly P01…P1000, and returns the registrations by id.
func checkFlood(t *testing.T, results []flooded) map[string]flooded {
	t.Helper()
	byID := map[string]flooded{}
	tokens := map[string]string{}
	for _, r := range results {
		if r.err != nil {
			t.Fatalf("registration from %s: %v", r.endpoint, r.err)
		}
		id, token := r.reply.String("player_id"), r.reply.String("auth_token")
		if r.reply.String("status") != "ACCEPTED" || id == "" || token == "" {
			t.Fatalf("registration from %s: %s, want ACCEPTED with an id and a token", r.endpoint, r.reply.Body)
		}
		if other, dup := byID[id]; dup {
			t.Errorf("%s given twice: to %s and %s", id, other.endpoint, r.endpoint)
		}
		if other, dup := tokens[token]; dup {
			t.Errorf("the same token issued to %s and %s", other, id)
		}
		byID[id], tokens[token] = r, id
	}
	var want []string
	for i := 1; i <= floodSize; i++ {
		want = append(want, fmt.Sprintf("P%02d", i))
	}
	if got := slices.Sorted(maps.Keys(byID)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Fatalf("ids given: %d distinct, want exactly P01…P%d", len(got), floodSize)
	}
	return byID
}

// query sends a LEAGUE_QUERY as sender with token.
func query(t *testing.T, managerURL, sender, token, queryType string) leaguetest.Reply {
	t.Helper()
	return leaguetest.Call(t, managerURL, "league_query", leaguetest.With(leaguetest.Envelope("LEAGUE_QUERY", sender),
		map[string]any{"auth_token": token, "query_type": queryType}))
}

// players asks, as player id with its token, for every player's contact
// endpoint.
func players(t *testing.T, managerURL, id, token string) map[string]string {
	t.Helper()
	reply := query(t, managerURL, "player:"+id, token, "GET_PLAYERS")
	var answer struct {
		Result struct {
			Data struct {
				Players []struct {
					ID       string `json:"player_id"`
					Endpoint string `json:"contact_endpoint"`
				} `json:"players"`
			} `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal(reply.Body, &answer); err != nil || reply.Result["success"] != true {
		t.Fatalf("GET_PLAYERS: %s (%v)", reply.Body, err)
	}
	out := map[string]string{}
	for _, p := range answer.Result.Data.Players {
		out[p.ID] = p.Endpoint
	}
	return out
}

func standingsOf(t *testing.T, managerURL string) protocol.StandingsFile {
	t.Helper()
	s, err := control.New(managerURL, "").Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return comparable(s)
}

// checkOwnTokensOnly requires each sampled player's token to work as that
// player and to be refused (E012) as the next sampled one.
func checkOwnTokensOnly(t *testing.T, managerURL string, byID map[string]flooded, sample ...string) {
	t.Helper()
	for i, id := range sample {
		token := byID[id].token()
		if reply := query(t, managerURL, "player:"+id, token, "GET_STATUS"); reply.Result["success"] != true {
			t.Errorf("%s with its own token: %s", id, reply.Body)
		}
		other := sample[(i+1)%len(sample)]
		wantLeagueError(t, query(t, managerURL, "player:"+other, token, "GET_STATUS"), "E012")
	}
}

// checkJournal reads the stopped manager's journal: one agent_registered
// event per player, as registered.
func checkJournal(t *testing.T, path string, byID map[string]flooded) {
	t.Helper()
	journal, records, err := store.OpenJournal(path)
	if err != nil {
		t.Fatalf("journal: %v", err)
	}
	if err := journal.Close(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, raw := range records {
		var ev engine.Event
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatalf("journal record %d: %v", i+1, err)
		}
		if ev.Kind != engine.EventAgentRegistered || ev.Agent == nil {
			t.Fatalf("journal record %d is %s, want only agent_registered", i+1, ev.Kind)
		}
		if seen[ev.Agent.ID] || byID[ev.Agent.ID].endpoint != ev.Agent.Endpoint {
			t.Errorf("journal record %d: %s at %s (seen before: %v)", i+1, ev.Agent.ID, ev.Agent.Endpoint, seen[ev.Agent.ID])
		}
		seen[ev.Agent.ID] = true
	}
	if len(records) != floodSize {
		t.Errorf("%d journal records, want %d", len(records), floodSize)
	}
}

// checkAllTokens requires every token to work for its player, a few at a
// time.
func checkAllTokens(t *testing.T, managerURL string, byID map[string]flooded) {
	t.Helper()
	ids := make(chan string)
	failed := make(chan string, len(byID))
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range ids {
				body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "league_query", "id": 1,
					"params": leaguetest.With(leaguetest.Envelope("LEAGUE_QUERY", "player:"+id),
						map[string]any{"auth_token": byID[id].token(), "query_type": "GET_STATUS"})})
				reply, err := post(managerURL, body)
				if err != nil || reply.Result["success"] != true {
					failed <- fmt.Sprintf("%s: %v %s", id, err, reply.Body)
				}
			}
		}()
	}
	for id := range byID {
		ids <- id
	}
	close(ids)
	wg.Wait()
	close(failed)
	for f := range failed {
		t.Errorf("token refused after the restart: %s", f)
	}
}
