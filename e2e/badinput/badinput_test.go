// Package badinput sends malformed and hostile requests to the /mcp of a
// real manager, referee and player, each its own process, and checks that
// every one gets the error protocol.md §2 and §5.3 call for, that the
// league's state does not move, and that the agent goes on serving.
package badinput_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"net/http"
	neturl "net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const adminToken = "adm-badinput-test-0123456789abcdef"

// readTimeout is the agents' --generic-timeout, which is also how long a
// client has to send a request: short, so that dripping clients are cut off
// quickly.
const readTimeout = "2s"

// target is one running agent and the messages the table aims at it.
type target struct {
	role string
	url  string // its /mcp
	// method and message are a request the agent acts on: a state change
	// if it were accepted. Each case spoils it in one way.
	method  string
	message map[string]any
	// lenientMethod and lenientMessage are a notification the agent only
	// acknowledges, for the spoilings protocol.md §9 #5 says players and
	// referees accept (no envelope, a non-UTC timestamp).
	lenientMethod  string
	lenientMessage map[string]any
}

// outcome is what a bad request must get back.
type outcome struct {
	status     int    // HTTP status; 0 means 200
	rpcCode    int    // a JSON-RPC error with this code
	leagueCode string // or a LEAGUE_ERROR result with this code
	accepted   bool   // or a plain result: the agent is lenient here
	toolError  bool   // or an MCP tool result with isError
}

func rpcError(code int) outcome       { return outcome{rpcCode: code} }
func leagueError(code string) outcome { return outcome{leagueCode: code} }

var accepted = outcome{accepted: true}

// badCase builds one bad request for a target and says what each role must answer.
type badCase struct {
	name string
	body func(tg target) []byte
	want func(role string) outcome
	mcp  bool // sent with the headers of an MCP client
}

func same(o outcome) func(string) outcome { return func(string) outcome { return o } }

// byRole: the manager enforces the envelope (E003, E021); players and
// referees accept what protocol.md §9 #5 and §8 tell them to.
func byRole(manager, others outcome) func(string) outcome {
	return func(role string) outcome {
		if role == "manager" {
			return manager
		}
		return others
	}
}

func request(method string, params any, id any) []byte {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params, "id": id})
	if err != nil {
		panic(err)
	}
	return body
}

func spoiled(tg target, change map[string]any) []byte {
	return request(tg.method, leaguetest.With(tg.message, change), 7)
}

// spoiledNotice spoils, for the manager, the message it acts on, and for a
// player or referee the notification it only acknowledges.
func spoiledNotice(tg target, change map[string]any) []byte {
	if tg.role == "manager" {
		return spoiled(tg, change)
	}
	return request(tg.lenientMethod, leaguetest.With(tg.lenientMessage, change), 7)
}

// nested is depth arrays inside each other: a parser that recurses per
// level without a limit blows its stack on it.
func nested(depth int) []byte {
	return []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
}

func cases() []badCase {
	return []badCase{
		{name: "invalid JSON", body: func(tg target) []byte { return []byte(`{"jsonrpc":"2.0","method":"` + tg.method + `",`) },
			want: same(rpcError(-32700))},
		{name: "empty body", body: func(target) []byte { return nil }, want: same(rpcError(-32700))},
		{name: "not an object", body: func(target) []byte { return []byte(`"register"`) }, want: same(rpcError(-32600))},
		{name: "wrong jsonrpc", body: func(tg target) []byte {
			return []byte(`{"jsonrpc":"1.0","method":"` + tg.method + `","params":{},"id":1}`)
		}, want: same(rpcError(-32600))},
		{name: "jsonrpc a number", body: func(tg target) []byte {
			return []byte(`{"jsonrpc":2.0,"method":"` + tg.method + `","params":{},"id":1}`)
		}, want: same(rpcError(-32600))},
		{name: "missing method", body: func(tg target) []byte {
			return []byte(`{"jsonrpc":"2.0","params":{},"id":1}`)
		}, want: same(rpcError(-32600))},
		{name: "method a number", body: func(target) []byte { return []byte(`{"jsonrpc":"2.0","method":42,"id":1}`) },
			want: same(rpcError(-32600))},
		{name: "a response instead of a request", body: func(target) []byte {
			return []byte(`{"jsonrpc":"2.0","result":{"status":"ok"},"id":1}`)
		}, want: same(rpcError(-32600))},
		{name: "id an object", body: func(tg target) []byte {
			return []byte(`{"jsonrpc":"2.0","method":"ping","id":{"x":1}}`)
		}, want: same(rpcError(-32600))},
		{name: "unknown method", body: func(target) []byte { return request("frobnicate", map[string]any{}, 1) },
			want: same(rpcError(-32601))},
		{name: "params a string", body: func(tg target) []byte { return request(tg.method, "register me", 1) },
			want: same(rpcError(-32602))},
		{name: "params an array", body: func(tg target) []byte { return request(tg.method, []any{tg.message}, 1) },
			want: same(rpcError(-32602))},
		{name: "a field of the wrong type", body: func(tg target) []byte {
			return spoiled(tg, map[string]any{"round_id": "three"})
		}, want: same(rpcError(-32602))},
		{name: "message_type of the wrong type", body: func(tg target) []byte {
			return spoiled(tg, map[string]any{"message_type": 12})
		}, want: same(rpcError(-32602))},
		{name: "wrong protocol", body: func(tg target) []byte {
			return spoiled(tg, map[string]any{"protocol": "league.v1"})
		}, want: same(leagueError("E018"))},
		{name: "missing envelope fields", body: func(tg target) []byte {
			return spoiledNotice(tg, map[string]any{"protocol": nil, "sender": nil, "timestamp": nil, "conversation_id": nil})
		}, want: byRole(leagueError("E003"), accepted)},
		{name: "non-UTC timestamp", body: func(tg target) []byte {
			return spoiledNotice(tg, map[string]any{"timestamp": "2025-01-15T12:00:00+02:00"})
		}, want: byRole(leagueError("E021"), accepted)},
		{name: "body over 1 MiB", body: func(tg target) []byte {
			return spoiled(tg, map[string]any{"padding": strings.Repeat("x", rpc.MaxBodyBytes)})
		}, want: same(outcome{status: http.StatusRequestEntityTooLarge, rpcCode: -32600})},
		{name: "batch", body: func(tg target) []byte {
			return []byte("[" + string(spoiled(tg, nil)) + "," + string(request("ping", nil, 2)) + "]")
		}, want: same(rpcError(-32600))},
		{name: "batch from an MCP client", mcp: true, body: func(tg target) []byte {
			return []byte("[" + string(request("tools/call", map[string]any{"name": tg.method, "arguments": tg.message}, 1)) + "]")
		}, want: same(outcome{status: http.StatusBadRequest, rpcCode: -32600})},
		{name: "invalid JSON from an MCP client", mcp: true, body: func(target) []byte { return []byte(`{"jsonrpc":"2.0","method":"tools/list",`) },
			want: same(outcome{status: http.StatusBadRequest, rpcCode: -32700})},
		{name: "unknown tool", mcp: true, body: func(target) []byte {
			return request("tools/call", map[string]any{"name": "frobnicate", "arguments": map[string]any{}}, 1)
		}, want: same(rpcError(-32602))},
		{name: "tool arguments a string", mcp: true, body: func(tg target) []byte {
			return request("tools/call", map[string]any{"name": tg.method, "arguments": "x"}, 1)
		}, want: same(outcome{toolError: true})}, // MCP 2025-11-25: input validation errors are tool results
		{name: "tools/call params an array", mcp: true, body: func(tg target) []byte {
			return request("tools/call", []any{tg.method}, 1)
		}, want: same(rpcError(-32602))},
		{name: "tools/call without name", mcp: true, body: func(tg target) []byte {
			return request("tools/call", map[string]any{"arguments": tg.message}, 1)
		}, want: same(rpcError(-32602))},
		{name: "tool arguments with a field of the wrong type", mcp: true, body: func(tg target) []byte {
			return request("tools/call", map[string]any{"name": tg.method, "arguments": leaguetest.With(tg.message, map[string]any{"round_id": "three"})}, 1)
		}, want: same(outcome{toolError: true})},
		{name: "tool arguments with a wrong protocol", mcp: true, body: func(tg target) []byte {
			return request("tools/call", map[string]any{"name": tg.method, "arguments": leaguetest.With(tg.message, map[string]any{"protocol": "league.v1"})}, 1)
		}, want: same(outcome{toolError: true})},
		{name: "100k nested arrays", body: func(target) []byte { return nested(100_000) }, want: same(rpcError(-32700))},
		{name: "100k nested arrays in params", body: func(tg target) []byte {
			return []byte(`{"jsonrpc":"2.0","method":"` + tg.method + `","id":1,"params":{"x":` + string(nested(100_000)) + `}}`)
		}, want: same(rpcError(-32700))},
	}
}

// The targets' messages name an endpoint that refuses connections
// (leaguetest.RefusingEndpoint): a match the referee took by mistake would
// fail there, but the mistake shows first on /health.

// allTargets are the manager, referee and player at these /mcp URLs.
func allTargets(t *testing.T, manager, referee, player string) []target {
	unreachable := leaguetest.RefusingEndpoint(t)
	return []target{managerTarget(manager, unreachable), refereeTarget(referee, unreachable), playerTarget(player)}
}

func managerTarget(url, unreachable string) target {
	meta := map[string]any{"display_name": "intruder", "version": "1.0.0", "game_types": []string{"even_odd"},
		"contact_endpoint": unreachable, "protocol_version": "2.1.0"}
	return target{role: "manager", url: url, method: "register_player",
		message: leaguetest.With(leaguetest.Envelope("LEAGUE_REGISTER_REQUEST", "player:alpha"), map[string]any{"player_meta": meta})}
}

func refereeTarget(url, unreachable string) target {
	start := leaguetest.With(leaguetest.Envelope("START_MATCH", "league_manager"), map[string]any{
		"match_id": "R9M9", "round_id": 9, "game_type": "even_odd", "league_seed": 1,
		"player_A_id": "P01", "player_B_id": "P02", "player_A_endpoint": unreachable, "player_B_endpoint": unreachable})
	return target{role: "referee", url: url, method: "start_match", message: start,
		lenientMethod: "notify_round", lenientMessage: roundAnnouncement()}
}

func playerTarget(url string) target {
	invitation := leaguetest.With(leaguetest.Envelope("GAME_INVITATION", "referee:REF01"), map[string]any{
		"match_id": "R9M9", "round_id": 9, "game_type": "even_odd", "role_in_match": "PLAYER_A", "opponent_id": "P02"})
	return target{role: "player", url: url, method: "handle_game_invitation", message: invitation,
		lenientMethod: "notify_round", lenientMessage: roundAnnouncement()}
}

func roundAnnouncement() map[string]any {
	return leaguetest.With(leaguetest.Envelope("ROUND_ANNOUNCEMENT", "league_manager"), map[string]any{
		"round_id": 9, "matches": []any{}})
}

// TestBadInput runs a manager, a referee and a player, and sends each of
// them every bad request of the table.
func TestBadInput(t *testing.T) {
	t.Parallel()
	dir, ctl, targets := startTargets(t)
	for _, tg := range targets {
		t.Run(tg.role, func(t *testing.T) {
			t.Parallel()
			for _, c := range cases() {
				t.Run(c.name, func(t *testing.T) {
					before := look(t, tg, ctl, dir)
					checkOutcome(t, send(t, tg.url, c.body(tg), c.mcp), c.want(tg.role))
					after := look(t, tg, ctl, dir)
					before.unchangedIn(t, after, !c.mcp)
					stillServes(t, tg.url)
				})
			}
		})
	}
	t.Run("slow drip", func(t *testing.T) {
		for _, tg := range targets {
			t.Run(tg.role, func(t *testing.T) {
				t.Parallel()
				checkDripCutOff(t, tg.url, stillServes)
			})
		}
	})
}

// startTargets runs a manager, a referee and a player in a new data folder
// and returns it, the manager's control client and the three as targets.
func startTargets(t *testing.T) (string, *control.Client, []target) {
	t.Helper()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--generic-timeout", readTimeout)
	ref := leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", "--generic-timeout", readTimeout)
	player := leaguetest.StartPlayer(t, dir, mgr.Endpoint, "P01", "--generic-timeout", readTimeout)
	ctl := control.New(mgr.Endpoint, adminToken)
	return dir, ctl, allTargets(t, mgr.Endpoint, ref.Endpoint, player.Endpoint)
}

// send posts body as a league peer would, or with the headers of an MCP
// client.
func send(t *testing.T, url string, body []byte, asMCP bool) leaguetest.Reply {
	t.Helper()
	if !asMCP {
		return leaguetest.Post(t, url, body)
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	reply := leaguetest.Reply{Status: resp.StatusCode, Body: raw}
	if err := json.Unmarshal(raw, &reply); err != nil {
		t.Fatalf("HTTP %d, body is not a JSON-RPC object: %v\n%s", resp.StatusCode, err, raw)
	}
	return reply
}

func checkOutcome(t *testing.T, reply leaguetest.Reply, want outcome) {
	t.Helper()
	wantStatus := cmp.Or(want.status, http.StatusOK)
	if reply.Status != wantStatus {
		t.Errorf("HTTP %d, want %d", reply.Status, wantStatus)
	}
	if reply.JSONRPC != "2.0" {
		t.Errorf("jsonrpc %q in %.300s", reply.JSONRPC, reply.Body)
	}
	got := reply.String("message_type")
	switch {
	case want.rpcCode != 0:
		if reply.Error == nil || reply.Error.Code != want.rpcCode || reply.Result != nil {
			t.Errorf("reply %.300s, want JSON-RPC error %d", reply.Body, want.rpcCode)
		}
	case want.leagueCode != "":
		if reply.Error != nil || got != "LEAGUE_ERROR" || reply.String("error_code") != want.leagueCode {
			t.Errorf("reply %.300s, want a LEAGUE_ERROR %s result", reply.Body, want.leagueCode)
		}
	case want.toolError:
		if reply.Error != nil || reply.Result["isError"] != true {
			t.Errorf("reply %.300s, want a tool result with isError", reply.Body)
		}
	case want.accepted:
		if reply.Error != nil || reply.Result == nil || got == "LEAGUE_ERROR" {
			t.Errorf("reply %.300s, want it accepted", reply.Body)
		}
	}
}

// view is what an agent shows of its state from outside.
type view struct {
	role    string
	served  float64
	state   string
	version int64             // manager: the standings' version
	lastSeq int64             // manager: the event feed's last sequence number
	files   map[string]string // the data folder but logs: path → size and time
}

func look(t *testing.T, tg target, ctl *control.Client, dir string) view {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	health, err := control.New(tg.url, "").Health(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v := view{role: tg.role, files: dataFiles(t, dir)}
	v.served, v.state = float64(health.Served), health.State
	if tg.role == "manager" {
		standings, err := ctl.Standings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		page, err := ctl.Events(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		v.version, v.lastSeq = standings.Version, page.LastSeq
	}
	return v
}

// unchangedIn requires that nothing but the count of requests moved.
// League requests are counted in requests_served, those the MCP SDK answers
// alone are not.
func (v view) unchangedIn(t *testing.T, after view, counted bool) {
	t.Helper()
	if counted && after.served <= v.served || after.served < v.served {
		t.Errorf("requests_served %v then %v: the request was not counted", v.served, after.served)
	}
	if after.state != v.state || after.version != v.version || after.lastSeq != v.lastSeq {
		t.Errorf("%s state moved: state %s → %s, standings version %d → %d, events %d → %d", v.role,
			v.state, after.state, v.version, after.version, v.lastSeq, after.lastSeq)
	}
	if !maps.Equal(v.files, after.files) {
		t.Errorf("the data folder changed:\nbefore %v\nafter  %v", v.files, after.files)
	}
}

// dataFiles lists the data folder without the logs, which bad requests
// rightly grow.
func dataFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "logs" || d.Name() == "test-output") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[rel] = fmt.Sprintf("%d bytes, %s", info.Size(), info.ModTime().Format(time.RFC3339Nano))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// stillServes requires a valid request to be answered after a bad one.
func stillServes(t *testing.T, url string) {
	t.Helper()
	reply := leaguetest.Call(t, url, "ping", map[string]any{})
	if reply.Error != nil || reply.String("status") != "ok" {
		t.Errorf("ping after the bad request: %.300s", reply.Body)
	}
}

// maxDrips bounds a dripping client: at one byte per dripEvery, far longer
// than the agents' read timeout.
const (
	maxDrips  = 600
	dripEvery = 50 * time.Millisecond
)

// checkDripCutOff sends a request's headers, then in another connection
// its body, a byte at a time, and requires the agent to close each such
// connection (its read timeout) while it answers another client.
func checkDripCutOff(t *testing.T, mcpURL string, serves func(*testing.T, string)) {
	u, err := neturl.Parse(mcpURL)
	if err != nil {
		t.Fatal(err)
	}
	starts := map[string]string{
		"headers": "POST /mcp HTTP/1.1\r\nHost: " + u.Host + "\r\nX-Drip: ",
		"body": "POST /mcp HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: application/json\r\n" +
			"Content-Length: 100000\r\n\r\n{",
	}
	for part, start := range starts {
		t.Run(part, func(t *testing.T) { drip(t, u.Host, mcpURL, start, serves) })
	}
}

func drip(t *testing.T, host, mcpURL, start string, serves func(*testing.T, string)) {
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	closed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, conn) // until the agent closes the connection
		close(closed)
	}()
	if _, err := conn.Write([]byte(start)); err != nil {
		t.Fatal(err)
	}
	tick := time.NewTicker(dripEvery)
	defer tick.Stop()
	for i := range maxDrips {
		select {
		case <-closed:
			if i == 0 {
				t.Errorf("the connection closed before the first drip")
			}
			return
		case <-tick.C:
		}
		if _, err := conn.Write([]byte(" ")); err != nil {
			<-closed // the agent closed it: the reader sees the end too
			return
		}
		if i == 0 {
			serves(t, mcpURL) // others are served while one drips
		}
	}
	t.Errorf("the agent still reads a request dripped for %d bytes", maxDrips)
}

// The page server (leaguetui pages) cuts off a client that drips its
// request's headers or body, as an agent does, and serves the others
// meanwhile.
func TestPageServerCutsOffDrippingClients(t *testing.T) {
	dir := t.TempDir()
	pages := leaguetest.Start(t, "pages", filepath.Join(dir, "test-output"), false, nil,
		"pages", "--port", "0", "--generic-timeout", readTimeout)
	checkDripCutOff(t, pages.Endpoint, func(t *testing.T, url string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if tools, err := mcpserve.ListTools(ctx, url); err != nil || !slices.Contains(tools, "navigate") {
			t.Errorf("the page server's tools while a client drips: %v, %v", tools, err)
		}
	})
}
