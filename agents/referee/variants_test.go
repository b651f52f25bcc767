package referee_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const adminToken = "adm-variants-test-0123456789abcdef"

// style is one way other implementations' players speak league.v2
// (protocol.md §9).
type style string

const (
	styleBare     style = "bare reply without JSON-RPC wrapper"
	styleTools    style = "MCP tools/call only"
	styleUpper    style = "UPPER message_type methods only"
	styleV1       style = "v1-era fields"
	styleParity   style = "parity_choose"
	styleAsync    style = "async callbacks"
	styleStringID style = "string ids, +00:00 and fractional timestamps"
	styleWrapped  style = "handle_message with the envelope in params.message only"
	styleFlaky    style = "a -32000 server error for each first move call"
)

// variantPlayer is a fake player in one style: an HTTP server on 127.0.0.1
// that registers itself with the manager over real HTTP and answers the
// referee the way peers of its style do.
type variantPlayer struct {
	style      style
	peer       *leaguetest.Peer
	refereeURL string // where async answers are posted

	mu          sync.Mutex
	id, token   string
	invitations map[string]bool // match ids invited to
	moves       map[string]bool // match ids asked for a move
	gameOvers   map[string]bool // match ids told the result of
	gameErrors  []string        // GAME_ERRORs received: retries the referee needed
	errorCodes  []string        // their error_code, in order
	flaked      map[string]bool // match ids whose first move call got a server error (styleFlaky)
	refused     []string        // methods answered with -32601
	methods     map[string]int  // methods that carried a league message
	callbacks   int             // async answers the referee accepted
	problems    []string        // what went wrong off the test goroutine

	completed     chan struct{} // closed on LEAGUE_COMPLETED
	completedOnce sync.Once

	tickets map[string]string // match id -> the auth_token its invitation carried
	// beforePost, when set, runs before each answer the player posts back,
	// with the method and the answer it is about to post.
	beforePost func(method string, answer map[string]any)
}

func newVariantPlayer(t *testing.T, s style) *variantPlayer {
	p := &variantPlayer{style: s, invitations: map[string]bool{}, moves: map[string]bool{}, gameOvers: map[string]bool{},
		methods: map[string]int{}, flaked: map[string]bool{}, completed: make(chan struct{}),
		tickets: map[string]string{}}
	p.peer = leaguetest.NewPeer(t, p.serve)
	return p
}

// kinds of message a player is sent.
const (
	kindInvite = "invite"
	kindMove   = "move"
	kindOver   = "over"
	kindError  = "error"
	kindNotify = "notify"
)

// methodsOf lists the methods each style serves, by kind.
func (p *variantPlayer) methodsOf() map[string]string {
	switch p.style {
	case styleUpper:
		return map[string]string{"GAME_INVITATION": kindInvite, "CHOOSE_PARITY_CALL": kindMove, "GAME_OVER": kindOver,
			"GAME_ERROR": kindError, "ROUND_ANNOUNCEMENT": kindNotify, "LEAGUE_STANDINGS_UPDATE": kindNotify,
			"ROUND_COMPLETED": kindNotify, "LEAGUE_COMPLETED": kindNotify}
	case styleParity:
		return map[string]string{"handle_game_invitation": kindInvite, "parity_choose": kindMove, "notify_match_result": kindOver,
			"notify_game_error": kindError, "notify_round": kindNotify, "update_standings": kindNotify,
			"notify_round_completed": kindNotify, "notify_league_completed": kindNotify}
	}
	return map[string]string{"handle_game_invitation": kindInvite, "choose_parity": kindMove, "notify_match_result": kindOver,
		"notify_game_error": kindError, "notify_round": kindNotify, "update_standings": kindNotify,
		"notify_round_completed": kindNotify, "notify_league_completed": kindNotify}
}

// kindOf is the kind of message a wrapped-style player routes on: it
// reads only message_type.
var kindOf = map[any]string{"GAME_INVITATION": kindInvite, "CHOOSE_PARITY_CALL": kindMove, "GAME_OVER": kindOver,
	"GAME_ERROR": kindError, "ROUND_ANNOUNCEMENT": kindNotify, "LEAGUE_STANDINGS_UPDATE": kindNotify,
	"ROUND_COMPLETED": kindNotify, "LEAGUE_COMPLETED": kindNotify}

func (p *variantPlayer) serve(req leaguetest.PeerRequest) (int, []byte) {
	method, msg := req.Method, req.Params
	if p.style == styleWrapped {
		return p.serveWrapped(req)
	}
	if p.style == styleFlaky && method == "choose_parity" && p.flakeOnce(msg) {
		return http.StatusOK, leaguetest.ErrorReply(req.ID, -32000, "Server error")
	}
	if p.style == styleTools {
		if method != "tools/call" {
			return p.refuse(req)
		}
		method, _ = msg["name"].(string)
		msg, _ = msg["arguments"].(map[string]any)
	}
	kind, ok := p.methodsOf()[method]
	if !ok || msg == nil {
		return p.refuse(req)
	}
	p.mu.Lock()
	p.methods[req.Method]++
	p.mu.Unlock()
	reply := p.handle(kind, msg)
	return http.StatusOK, p.frame(req.ID, reply)
}

// serveWrapped answers like a player that reads the league message from
// params.message only, whatever the method: anything else is "Missing
// required fields", with HTTP 500.
func (p *variantPlayer) serveWrapped(req leaguetest.PeerRequest) (int, []byte) {
	msg, _ := req.Params["message"].(map[string]any)
	kind, ok := kindOf[msg["message_type"]]
	if !ok {
		p.mu.Lock()
		p.refused = append(p.refused, req.Method)
		p.mu.Unlock()
		return http.StatusInternalServerError, leaguetest.ErrorReply(req.ID, -32000, "Missing required fields: message")
	}
	p.mu.Lock()
	p.methods[req.Method]++
	p.mu.Unlock()
	return http.StatusOK, p.frame(req.ID, p.handle(kind, msg))
}

// flakeOnce reports whether this is the match's first move call, which
// styleFlaky answers with a server error.
func (p *variantPlayer) flakeOnce(msg map[string]any) bool {
	matchID, _ := msg["match_id"].(string)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.flaked[matchID] {
		return false
	}
	p.flaked[matchID] = true
	return true
}

func (p *variantPlayer) refuse(req leaguetest.PeerRequest) (int, []byte) {
	p.mu.Lock()
	p.refused = append(p.refused, req.Method)
	p.mu.Unlock()
	return http.StatusOK, leaguetest.ErrorReply(req.ID, -32601, "Method not found: "+req.Method)
}

// frame wraps a reply the way the style answers.
func (p *variantPlayer) frame(id json.RawMessage, reply map[string]any) []byte {
	switch p.style {
	case styleBare: // SPEC 5.3.2 sample: the handler's dict is the whole body
		out, _ := json.Marshal(reply)
		return out
	case styleTools: // an MCP tool result: the message as JSON text
		text, _ := json.Marshal(reply)
		return leaguetest.ResultReply(id, map[string]any{"content": []map[string]any{{"type": "text", "text": string(text)}}})
	}
	return leaguetest.ResultReply(id, reply)
}

// now is the style's timestamp.
func (p *variantPlayer) now() string {
	if p.style == styleStringID {
		return time.Now().UTC().Format("2006-01-02T15:04:05.000000") + "+00:00"
	}
	return time.Now().UTC().Format("2006-01-02T15:04:05Z")
}

func (p *variantPlayer) envelope(messageType string, in map[string]any) map[string]any {
	p.mu.Lock()
	id, token := p.id, p.token
	p.mu.Unlock()
	env := map[string]any{"protocol": "league.v2", "message_type": messageType, "sender": "player:" + id,
		"timestamp": p.now(), "conversation_id": in["conversation_id"], "auth_token": token, "player_id": id,
		"match_id": in["match_id"], "round_id": in["round_id"], "league_id": in["league_id"]}
	return env
}

// postedEnvelope starts an answer posted back to the referee: its
// auth_token is the match ticket the call carried, which is how the
// referee knows the answer is the invited player's.
func (p *variantPlayer) postedEnvelope(messageType string, call map[string]any) map[string]any {
	return p.with(p.envelope(messageType, call), "auth_token", call["auth_token"])
}

func (p *variantPlayer) handle(kind string, msg map[string]any) map[string]any {
	matchID, _ := msg["match_id"].(string)
	p.mu.Lock()
	switch kind {
	case kindInvite:
		p.invitations[matchID] = true
		p.tickets[matchID], _ = msg["auth_token"].(string)
	case kindMove:
		p.moves[matchID] = true
		p.checkDeadline(msg)
	case kindOver:
		p.gameOvers[matchID] = true
	case kindError:
		p.gameErrors = append(p.gameErrors, fmt.Sprintf("%s: %v", matchID, msg["error_description"]))
		code, _ := msg["error_code"].(string)
		p.errorCodes = append(p.errorCodes, code)
	case kindNotify:
		if msg["message_type"] == "LEAGUE_COMPLETED" {
			p.completedOnce.Do(func() { close(p.completed) })
		}
	}
	id := p.id
	p.mu.Unlock()

	choice := []string{"even", "odd"}[len(matchID)%2]
	switch {
	case kind == kindInvite && p.style == styleV1:
		// Guy-Bilitski's v1 player: type, game_id, accepted.
		return map[string]any{"type": "GAME_JOIN_ACK", "game_id": matchID, "player_id": id, "accepted": true}
	case kind == kindMove && p.style == styleV1:
		return map[string]any{"type": "RESPONSE_PARITY_CHOOSE", "game_id": matchID, "player_id": id, "choice": " " + strings.ToUpper(choice) + " "}
	case kind == kindMove && p.style == styleParity:
		return p.with(p.envelope("RESPONSE_PARITY_CHOOSE", msg), "parity_choice", choice)
	case kind == kindInvite && p.style == styleAsync:
		go p.postBack("receive_game_join_ack", p.with(p.with(p.postedEnvelope("GAME_JOIN_ACK", msg), "accept", true),
			"arrival_timestamp", p.now()))
		return map[string]any{"status": "joined"}
	case kind == kindMove && p.style == styleAsync:
		go p.postBack("receive_parity_response", p.with(p.postedEnvelope("CHOOSE_PARITY_RESPONSE", msg), "parity_choice", choice))
		return map[string]any{"status": "ok"}
	case kind == kindInvite:
		return p.with(p.with(p.envelope("GAME_JOIN_ACK", msg), "accept", true), "arrival_timestamp", p.now())
	case kind == kindMove:
		return p.with(p.envelope("CHOOSE_PARITY_RESPONSE", msg), "parity_choice", choice)
	}
	return map[string]any{"status": "ok"}
}

// moveTimeout is the referee's move timeout in these tests.
const moveTimeout = 3 * time.Second

// checkDeadline requires the move call's deadline (protocol.md §3.8): UTC
// in the specification's format, the move timeout from now. Call with p.mu
// held.
func (p *variantPlayer) checkDeadline(msg map[string]any) {
	raw, _ := msg["deadline"].(string)
	deadline, err := time.Parse("2006-01-02T15:04:05Z", raw)
	now := time.Now()
	if err != nil || deadline.Before(now.Add(moveTimeout-2*time.Second)) || deadline.After(now.Add(moveTimeout+time.Second)) {
		p.problems = append(p.problems, fmt.Sprintf("move call for %v has deadline %q, want about now + %s as YYYY-MM-DDTHH:MM:SSZ",
			msg["match_id"], raw, moveTimeout))
	}
}

func (p *variantPlayer) with(m map[string]any, k string, v any) map[string]any {
	m[k] = v
	return m
}

// postBack sends an answer to the referee's /mcp on its own, as TalHibner's
// players do, and checks that the referee took it.
func (p *variantPlayer) postBack(method string, msg map[string]any) {
	if p.beforePost != nil {
		p.beforePost(method, msg)
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": msg, "id": "cb-" + fmt.Sprint(msg["match_id"])})
	resp, err := http.Post(p.refereeURL, "application/json", bytes.NewReader(body))
	var reply struct {
		Result map[string]any `json:"result"`
		Error  any            `json:"error"`
	}
	if err == nil {
		err = json.NewDecoder(resp.Body).Decode(&reply)
		resp.Body.Close()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil || reply.Error != nil || reply.Result == nil {
		p.problems = append(p.problems, fmt.Sprintf("%s for %v: err %v, reply %+v", method, msg["match_id"], err, reply))
		return
	}
	p.callbacks++
}

// register registers the player with the manager in its style.
func (p *variantPlayer) register(t *testing.T, managerURL string, n int) {
	t.Helper()
	meta := map[string]any{"display_name": fmt.Sprintf("variant-%d", n), "version": "1.0.0",
		"game_types": []string{"even_odd"}, "contact_endpoint": p.peer.Endpoint}
	msg := leaguetest.Envelope("LEAGUE_REGISTER_REQUEST", fmt.Sprintf("player:variant%d", n))
	msg["player_meta"] = meta
	method, id := "register_player", any(1)
	var params any = msg
	switch p.style {
	case styleTools:
		method, params = "tools/call", map[string]any{"name": "register_player", "arguments": msg}
	case styleUpper:
		method = "LEAGUE_REGISTER_REQUEST"
	case styleWrapped:
		method, params = "handle_message", map[string]any{"message": msg}
	case styleV1:
		delete(meta, "game_types")
		meta["supported_games"] = []string{"even_odd"}
		msg = map[string]any{"type": "LEAGUE_REGISTER_REQUEST", "sender": msg["sender"], "player_meta": meta}
		params = msg
	case styleStringID:
		id = fmt.Sprintf("reg-%d", n)
		msg["timestamp"] = p.now()
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params, "id": id})
	reply := leaguetest.Post(t, managerURL, body)
	result := reply.Result
	if p.style == styleTools {
		content, _ := result["content"].([]any)
		if len(content) == 0 {
			t.Fatalf("%s: registration reply %s has no MCP content", p.style, reply.Body)
		}
		text, _ := content[0].(map[string]any)["text"].(string)
		result = nil
		if err := json.Unmarshal([]byte(text), &result); err != nil {
			t.Fatalf("%s: content[0].text %q is not the reply message: %v", p.style, text, err)
		}
	}
	if want, _ := json.Marshal(id); !bytes.Equal(reply.ID, want) {
		t.Errorf("%s: registration reply id %s, want %s echoed exactly", p.style, reply.ID, want)
	}
	playerID, _ := result["player_id"].(string)
	token, _ := result["auth_token"].(string)
	if result["status"] != "ACCEPTED" || playerID == "" || token == "" {
		t.Fatalf("%s: registration refused: %s", p.style, reply.Body)
	}
	p.mu.Lock()
	p.id, p.token = playerID, token
	p.mu.Unlock()
}

// TestPlayerVariants runs a real manager and a real referee with one
// built-in player and one fake player per style of protocol.md §9: every
// player must play all its matches, with no technical loss and no retry.
func TestPlayerVariants(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Short deadlines: a style the referee cannot understand shows as a
	// technical loss in seconds instead of hanging the test.
	timeouts := []string{"--join-timeout", "3s", "--move-timeout", moveTimeout.String(), "--retry-delay", "50ms", "--generic-timeout", "3s"}
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "5"}, timeouts...)...)
	ref := leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", append([]string{"--max-concurrent", "4"}, timeouts...)...)

	styles := []style{styleBare, styleTools, styleUpper, styleV1, styleParity, styleAsync, styleStringID, styleWrapped}
	var fakes []*variantPlayer
	for i, s := range styles {
		p := newVariantPlayer(t, s)
		p.refereeURL = ref.Endpoint
		p.register(t, mgr.Endpoint, i+1)
		fakes = append(fakes, p)
	}
	builtin := leaguetest.StartPlayer(t, dir, mgr.Endpoint, "builtin", "--strategy", "counter", "--seed", "5")
	players := len(fakes) + 1
	wantPlayed := players - 1

	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	events, _ := leaguetest.NextEvents(t, ctl, 0, 2*time.Minute, engine.EventLeagueCompleted, engine.EventStopped)
	results := 0
	for _, ev := range events {
		if ev.Kind == engine.EventMatchResult {
			results++
			if ev.Result.Status == engine.StatusTechnicalLoss {
				t.Errorf("%s: technical loss for %v", ev.MatchID, ev.Result.Offenders)
			}
		}
	}
	if want := players * (players - 1) / 2; results != want {
		t.Errorf("%d results, want %d", results, want)
	}
	checkStepsBeforeResults(t, events)
	for _, p := range fakes {
		select {
		case <-p.completed:
		case <-time.After(30 * time.Second):
			t.Errorf("%s: LEAGUE_COMPLETED never arrived", p.style)
		}
	}
	standings, err := ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]int{}
	for i, row := range standings.Standings {
		rows[row.PlayerID] = i
	}
	check := func(name, id string) {
		t.Helper()
		i, ok := rows[id]
		if !ok {
			t.Errorf("%s (%s) has no standings row", name, id)
			return
		}
		row := standings.Standings[i]
		if row.Played != wantPlayed || row.TechnicalLosses != 0 || row.Wins+row.Draws+row.Losses != wantPlayed {
			t.Errorf("%s (%s): played %d, W/D/L %d/%d/%d, technical losses %d; want %d played, none lost technically",
				name, id, row.Played, row.Wins, row.Draws, row.Losses, row.TechnicalLosses, wantPlayed)
		}
	}
	check("built-in player", builtin.ID)
	for _, p := range fakes {
		t.Run(string(p.style), func(t *testing.T) {
			p.mu.Lock()
			defer p.mu.Unlock()
			check(string(p.style), p.id)
			if len(p.invitations) != wantPlayed || len(p.moves) != wantPlayed || len(p.gameOvers) != wantPlayed {
				t.Errorf("invited to %d, asked to move in %d, told the result of %d matches; want %d each",
					len(p.invitations), len(p.moves), len(p.gameOvers), wantPlayed)
			}
			if len(p.gameErrors) > 0 {
				t.Errorf("the referee had to retry: GAME_ERRORs %v", p.gameErrors)
			}
			if len(p.problems) > 0 {
				t.Errorf("problems: %v", p.problems)
			}
			p.checkStyle(t, wantPlayed)
		})
	}
	checkNoFailedNotifications(t, dir)
}

// checkStepsBeforeResults: the referee batches its match steps, yet the
// manager has each match's steps, from its invitations to its decision,
// before the match's result.
func checkStepsBeforeResults(t *testing.T, events []engine.Event) {
	t.Helper()
	steps := map[string][]string{}
	for _, ev := range events {
		switch ev.Kind {
		case engine.EventMatchStep:
			steps[ev.MatchID] = append(steps[ev.MatchID], ev.Step)
		case engine.EventMatchResult:
			got := steps[ev.MatchID]
			if len(got) < 3 || got[0] != "invited" || got[1] != "joined" {
				t.Errorf("%s: steps before its result %v, want invited, joined, the turn and the decision", ev.MatchID, got)
			}
		}
	}
}

// checkStyle checks that the exchanges really went the style's way, so that
// a passing test means the variant was exercised.
func (p *variantPlayer) checkStyle(t *testing.T, matches int) {
	t.Helper()
	switch p.style {
	case styleTools:
		if p.methods["tools/call"] < 3*matches {
			t.Errorf("only %d tools/call requests, want the invitations, moves and results at least", p.methods["tools/call"])
		}
		if !slices.Contains(p.refused, "handle_game_invitation") {
			t.Errorf("the referee never tried the plain method first: refused %v", p.refused)
		}
	case styleUpper:
		for _, m := range []string{"GAME_INVITATION", "CHOOSE_PARITY_CALL", "GAME_OVER"} {
			if p.methods[m] != matches {
				t.Errorf("%d %s requests, want %d", p.methods[m], m, matches)
			}
		}
	case styleParity:
		if p.methods["parity_choose"] != matches || !slices.Contains(p.refused, "choose_parity") {
			t.Errorf("%d parity_choose requests (refused %v), want %d after choose_parity was refused",
				p.methods["parity_choose"], p.refused, matches)
		}
	case styleWrapped:
		// The manager speaks the dialect the player registered in from
		// the first message; the referee, which never heard from it, finds
		// it on its first call and keeps to it.
		if p.methods["handle_message"] < 3*matches {
			t.Errorf("only %d handle_message requests, want the invitations, moves and results at least", p.methods["handle_message"])
		}
		for _, m := range p.refused {
			mcpProbe := m == "initialize" || strings.Contains(m, "/") // the manager's look at its MCP tools
			if m != "handle_game_invitation" && !mcpProbe {
				t.Errorf("%s was sent flat to a wrapped-only player", m)
			}
		}
	case styleAsync:
		if p.callbacks != 2*matches {
			t.Errorf("the referee took %d posted answers, want %d (an ack and a choice per match)", p.callbacks, 2*matches)
		}
	}
	for _, m := range p.refused {
		if m == "handle_game_invitation" && p.style != styleTools && p.style != styleUpper && p.style != styleWrapped {
			t.Errorf("refused %s", m)
		}
	}
	// Once a fallback worked, the referee remembers it: each refused
	// method is tried about once, not once per call.
	counts := map[string]int{}
	for _, m := range p.refused {
		counts[m]++
	}
	for m, n := range counts {
		if n > 2 && m != "initialize" {
			t.Errorf("%s was refused %d times: the working alias was not remembered", m, n)
		}
	}
}

// checkNoFailedNotifications reads the manager's log: every notification
// to every style of player must have been taken.
func checkNoFailedNotifications(t *testing.T, dir string) {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "league", "*", "league.log.jsonl"))
	if len(logs) == 0 {
		t.Fatalf("no league log in %s", dir)
	}
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "NOTIFICATION_FAILED") {
			t.Errorf("manager could not deliver a notification: %s", line)
		}
	}
}

// TestRetryNoticeCode: a player that answers a move call with a JSON-RPC
// server error (-32000) is asked again after a GAME_ERROR whose code says
// its answer held no valid reply (E003), not that it timed out (E001).
func TestRetryNoticeCode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	timeouts := []string{"--join-timeout", "3s", "--move-timeout", moveTimeout.String(), "--retry-delay", "50ms", "--generic-timeout", "3s"}
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "9"}, timeouts...)...)
	ref := leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", timeouts...)
	flaky := newVariantPlayer(t, styleFlaky)
	flaky.refereeURL = ref.Endpoint
	flaky.register(t, mgr.Endpoint, 1)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "builtin", "--seed", "9")

	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	events, _ := leaguetest.NextEvents(t, ctl, 0, time.Minute, engine.EventLeagueCompleted, engine.EventStopped)
	for _, ev := range events {
		if ev.Kind == engine.EventMatchResult && ev.Result.Status == engine.StatusTechnicalLoss {
			t.Errorf("%s: technical loss for %v; one server error is retried", ev.MatchID, ev.Result.Offenders)
		}
	}
	flaky.mu.Lock()
	defer flaky.mu.Unlock()
	if len(flaky.errorCodes) != 1 || flaky.errorCodes[0] != "E003" {
		t.Errorf("GAME_ERROR codes %v (%v), want one E003 MISSING_REQUIRED_FIELD for the server error", flaky.errorCodes, flaky.gameErrors)
	}
	if len(flaky.problems) > 0 {
		t.Errorf("problems: %v", flaky.problems)
	}
}
