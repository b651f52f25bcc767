package check

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// genericTimeout is league.v2's limit for every exchange it names no other
// for (10 s); ackTimeout the one for a notification's acknowledgement (5 s).
const (
	genericTimeout = 10 * time.Second
	ackTimeout     = 5 * time.Second
)

// managerEnvelope starts a message from the manager to the agent.
func (s *session) managerEnvelope(messageType, conv string) protocol.Envelope {
	env := protocol.NewEnvelope(messageType, protocol.SenderManager, conv)
	env.LeagueID = checkLeague
	return env
}

// checkHealth: GET /health beside /mcp.
func (s *session) checkHealth(ctx context.Context) {
	const id = "health/answers"
	if s.pull {
		s.rec.skip(id, "a player on a pull seat serves no port: there is no host to ask GET /health of")
		return
	}
	u, err := url.Parse(s.endpoint)
	if err != nil {
		s.rec.fail(id, "the contact endpoint is not a URL: "+err.Error(), exchange{}, "an http URL")
		return
	}
	u.Path = "/health"
	x := get(ctx, u.String(), genericTimeout)
	switch {
	case x.Err != nil || x.Status != http.StatusOK:
		s.rec.fail(id, "GET /health did not answer 200", x, "HTTP 200 with a JSON object")
	case !json.Valid(x.Body):
		s.rec.fail(id, "GET /health answered something that is not JSON", x, "HTTP 200 with a JSON object")
	default:
		s.rec.pass(id, "")
	}
}

// checkTools: an MCP tools/list names the tools of the agent's role.
func (s *session) checkTools(ctx context.Context, want []string) {
	const id = "mcp/tools-list"
	body := request("tools/list", map[string]any{}, s.ids.Add(1))
	x := post(ctx, s.endpoint, body, genericTimeout, http.Header{"Accept": {"application/json, text/event-stream"}})
	result, err := mcpResult(x)
	if err != nil {
		s.rec.fail(id, "tools/list: "+err.Error(), x, "a tools/list result {tools:[{name, inputSchema}]}")
		return
	}
	var list struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(result, &list); err != nil {
		s.rec.fail(id, "the result is not a tool list: "+err.Error(), x, "{tools:[{name, inputSchema}]}")
		return
	}
	var names, bad []string
	for _, t := range list.Tools {
		names = append(names, t.Name)
		if t.InputSchema["type"] != "object" {
			bad = append(bad, t.Name)
		}
	}
	var missing []string
	for _, w := range want {
		if !slices.Contains(names, w) {
			missing = append(missing, w)
		}
	}
	switch {
	case len(missing) > 0:
		s.rec.fail(id, "tools missing: "+strings.Join(missing, ", "), x, "the tools "+strings.Join(want, ", "))
	case len(bad) > 0:
		s.rec.fail(id, "inputSchema is not an object schema for: "+strings.Join(bad, ", "), x, `every inputSchema {"type":"object",…}`)
	default:
		s.rec.pass(id, "")
	}
}

// mcpResult reads the result of an MCP request answered as JSON or as
// an event stream.
func mcpResult(x exchange) (json.RawMessage, error) {
	if x.Err != nil {
		return nil, x.Err
	}
	body := x.Body
	if strings.HasPrefix(x.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(body), "\n") {
			if data, ok := strings.CutPrefix(line, "data:"); ok && strings.TrimSpace(data) != "" {
				body = []byte(data)
			}
		}
	}
	var resp struct {
		Result json.RawMessage    `json:"result"`
		Error  *protocol.RPCError `json:"error"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("not a JSON-RPC response: %v", err)
	}
	if resp.Error != nil {
		return nil, resp.Error
	}
	if len(resp.Result) == 0 {
		return nil, fmt.Errorf("no result")
	}
	return resp.Result, nil
}

// checkRPC runs the JSON-RPC framing checks and the acknowledgements of
// the manager's notices.
func (s *session) checkRPC(ctx context.Context) {
	s.checkUnknownMethod(ctx)
	s.checkNotification(ctx)
	announce := s.announcement()
	x := post(ctx, s.endpoint, request("notify_round", announce, "check-id-7"), genericTimeout, nil)
	acks := []exchange{x}
	standings := &protocol.StandingsUpdate{Envelope: s.managerEnvelope(protocol.TypeStandingsUpdate, "conv-check-standings"),
		Standings: s.standings()}
	standings.RoundID = 1
	// leaguetui sends integer ids; other implementations strings.
	y := post(ctx, s.endpoint, request("update_standings", standings, 7007), genericTimeout, nil)
	s.checkEchoedID(map[string]exchange{`"check-id-7"`: x, "7007": y})
	acks = append(acks, y)
	completed := &protocol.RoundCompleted{Envelope: s.managerEnvelope(protocol.TypeRoundCompleted, "conv-check-round"),
		MatchesCompleted: 1, MatchesPlayed: 1}
	completed.RoundID = 1
	acks = append(acks, s.call(ctx, "notify_round_completed", completed, genericTimeout))
	for _, a := range acks {
		if _, err := a.reply(); err != nil {
			s.rec.fail("notify/acks", "not acknowledged: "+err.Error(), a, "a JSON-RPC result, such as {\"status\":\"ok\"}")
			return
		}
	}
	s.rec.pass("notify/acks", "")
}

// announcement is the round the checker announces: the matches it plays
// with a player, refereed from the checker's own endpoint; none for a
// referee, whose matches come by start_match.
func (s *session) announcement() *protocol.RoundAnnouncement {
	msg := &protocol.RoundAnnouncement{Envelope: s.managerEnvelope(protocol.TypeRoundAnnouncement, "conv-check-round-1"),
		Matches: []protocol.AnnouncedMatch{}}
	msg.RoundID = 1
	if s.opts.Role == PlayerRole {
		for i, game := range s.games {
			msg.Matches = append(msg.Matches, protocol.AnnouncedMatch{MatchID: fmt.Sprintf("R%dM1", i+1), GameType: game,
				PlayerAID: s.id, PlayerBID: opponentPlayer, RefereeEndpoint: s.mgr.URL})
		}
	}
	return msg
}

// standings are the checker's league table: the agent and its opponent.
func (s *session) standings() []protocol.StandingRow {
	return []protocol.StandingRow{{Rank: 1, PlayerID: opponentPlayer, DisplayName: opponentPlayer},
		{Rank: 2, PlayerID: assignedPlayer, DisplayName: agentName}}
}

func (s *session) checkUnknownMethod(ctx context.Context) {
	const id = "rpc/unknown-method-is-32601"
	env := s.managerEnvelope("LEAGUETUI_CHECK_UNKNOWN", "conv-check-unknown")
	x := s.call(ctx, "leaguetui_check_no_such_method", env, genericTimeout)
	if e := x.rpcError(); e == nil || e.Code != protocol.CodeMethodNotFound {
		s.rec.fail(id, "an unknown method was not answered with -32601", x, `{"jsonrpc":"2.0","error":{"code":-32601,…},"id":<the request's>}`)
		return
	}
	s.rec.pass(id, "")
}

func (s *session) checkNotification(ctx context.Context) {
	const id = "rpc/notification-gets-no-reply"
	msg := &protocol.StandingsUpdate{Envelope: s.managerEnvelope(protocol.TypeStandingsUpdate, "conv-check-notification"),
		Standings: s.standings()}
	x := post(ctx, s.endpoint, request("update_standings", msg, nil), genericTimeout, nil)
	switch {
	case x.Err != nil:
		s.rec.fail(id, "the notification got no HTTP answer", x, "an empty answer (HTTP 202 or 204)")
	case len(bytes.TrimSpace(x.Body)) > 0 && isRPCResponse(x.Body):
		s.rec.fail(id, "a notification was answered with a JSON-RPC response", x, "an empty answer (HTTP 202 or 204): JSON-RPC 2.0 never answers a notification")
	default:
		s.rec.pass(id, "")
	}
}

func isRPCResponse(body []byte) bool {
	f := fields(body)
	_, result := f["result"]
	_, rpcErr := f["error"]
	_, id := f["id"]
	return result || rpcErr || id || str(f, "jsonrpc") != ""
}

// checkEchoedID: each reply is JSON-RPC 2.0 with its request's id, as
// sent, a string id and an integer one alike.
func (s *session) checkEchoedID(byID map[string]exchange) {
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, wantID := range ids {
		x := byID[wantID]
		if err := answersWithID(x, wantID); err != nil {
			s.rec.fail("rpc/id-echoed", err.Error(), x, fmt.Sprintf(`{"jsonrpc":"2.0","result":{…},"id":%s}`, wantID))
			return
		}
	}
	s.rec.pass("rpc/id-echoed", "")
}

// sentID is the id of the JSON-RPC request x sent, as it was written.
func sentID(x exchange) string {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(x.Sent, &req)
	return string(bytes.TrimSpace(req.ID))
}

// oversizeBytes is the size of the oversize body: four times what
// leaguetui's agents take.
const oversizeBytes = 4 << 20

// checkHostileRPC sends what is not JSON and what is far too large, and
// checks that the agent answers correctly after each.
func (s *session) checkHostileRPC(ctx context.Context) {
	malformed := []byte(`{"jsonrpc":"2.0","id":99,"method":"notify_round","params":{"protocol":"league.v2",`)
	x := postAlone(ctx, s.endpoint, malformed, genericTimeout)
	if e := x.rpcError(); e != nil && e.Code == protocol.CodeParseError {
		s.rec.pass("rpc/malformed-json-is-32700", "")
	} else {
		s.rec.fail("rpc/malformed-json-is-32700", "a body that is not JSON was not answered with -32700", x,
			`{"jsonrpc":"2.0","error":{"code":-32700,…},"id":null}`)
	}
	s.survives(ctx, "rpc/survives-malformed-json", x)

	big := s.announcement()
	padded := map[string]any{"padding": strings.Repeat("x", oversizeBytes)}
	raw, _ := json.Marshal(big)
	var msg map[string]any
	_ = json.Unmarshal(raw, &msg)
	for k, v := range padded {
		msg[k] = v
	}
	x = postAlone(ctx, s.endpoint, request("notify_round", msg, s.ids.Add(1)), genericTimeout)
	x.Sent = []byte(fmt.Sprintf("a notify_round of %d bytes (a %d-byte padding field)", len(x.Sent), oversizeBytes))
	s.survives(ctx, "rpc/survives-oversize-body", x)
}

// survives checks that the agent, after the hostile exchange x, is still
// there: a ping (SPEC 5.12.2) gets any HTTP answer, whatever it says (an
// agent need not serve ping; the other checks judge its answers' form). If
// not, the agent counts as gone and the checks after this one are skipped.
func (s *session) survives(ctx context.Context, id string, hostile exchange) {
	if s.dead != "" {
		s.rec.skip(id, s.dead)
		return
	}
	probe := post(ctx, s.endpoint, request("ping", map[string]any{}, s.ids.Add(1)), genericTimeout, nil)
	err := probe.Err
	if err == nil {
		if err = s.alive(); err == nil {
			s.rec.pass(id, "")
			return
		}
	}
	why := "after it, a ping was not answered: " + err.Error()
	if connectionClosed(err) {
		// The hostile request went on a connection of its own, closed
		// after it: this is the agent closing the ping's.
		why = "after it, the agent closed the connection under the ping, unanswered: " + err.Error()
	}
	f := finding{Status: Fail, Message: why,
		Sent: hostile.sent() + "\nthen: " + probe.sent(), Got: hostile.got() + "\nthen: " + probe.got(),
		Exp: "any answer (or none) to the first, then an HTTP answer to the ping"}
	s.rec.add(id, f)
	s.dead = "the agent stopped answering after " + id
}

// answersWithID is nil when x is a JSON-RPC 2.0 response, a result or an
// error, with the id wantID.
func answersWithID(x exchange, wantID string) error {
	var resp struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	switch {
	case x.Err != nil:
		return x.Err
	case json.Unmarshal(x.Body, &resp) != nil:
		return fmt.Errorf("the answer is not a JSON object")
	case resp.JSONRPC != "2.0":
		return fmt.Errorf("jsonrpc is %q, not \"2.0\"", resp.JSONRPC)
	case string(bytes.TrimSpace(resp.ID)) != wantID:
		return fmt.Errorf("the id came back as %s, not %s", orMissing(resp.ID), wantID)
	case len(resp.Result) == 0 && len(resp.Error) == 0:
		return fmt.Errorf("neither result nor error")
	}
	return nil
}
