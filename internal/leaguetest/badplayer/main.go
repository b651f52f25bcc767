// Command badplayer is a league player that misbehaves on purpose, in one
// way chosen with --mode, so that tests can watch a real league of real
// processes deal with it. It registers with the manager like any player and
// prints the ready lines of agents/node, so leaguetest starts it like the
// others. It listens on 127.0.0.1 only.
//
// Modes (what the referee sees):
//
//	slow       answers each move after --delay, past the move deadline
//	stall      never answers an invitation: holds it until the caller gives up
//	crash      plays its first match, then holds its next invitation until
//	           the test kills the process
//	refuse     closes its listener once registered: connections are refused
//	malformed  answers invitations and moves with broken JSON
//	invalid    answers each move with "maybe", not a parity
//	decline    answers each invitation with accept:false
//	wrong_link link race: answers each GAME_MOVE_CALL with a page that is not a link
//	no_move    link race: answers with move_data but no choice
//	wrong_tool link race: answers with another tool's move (search_wikipedia)
//	style      a correct player of another style (protocol.md §9): it serves
//	           only UPPER_CASE message-type methods and answers with the bare
//	           message, without the JSON-RPC wrapper
//	request_reply a correct player of another implementation that answers
//	           each call with a body shaped like a request: the answer in
//	           params, under a method named after it (game_join_ack …)
//	ack_move   link race: answers each GAME_MOVE_CALL with a bare ack and
//	           posts no move
//	wrapped    a correct player of the wrapped dialect (protocol.md §1.2): it
//	           registers with handle_message and the request in
//	           params.message, and reads only params.message: anything else
//	           gets HTTP 500 and -32000 "Missing required fields"
//
// Modes that break one check of `leaguetui check` each (league/check):
//
//	bad_register          registers without player_meta.version and conversation_id
//	ignore_refusal        refused, neither registers again nor exits
//	wrong_sender          sends as player:<its name>, not the id it was given
//	unknown_ok            answers an unknown method with a result, not -32601
//	answer_notifications  answers JSON-RPC notifications with a response
//	id_zero               answers every request with the id 0
//	no_notify_ack         answers the manager's round and standings notices with an error
//	upper                 answers each move with "EVEN"
//	no_move_type          answers each move without its message_type
//	no_result_ack         answers GAME_OVER with an error
//	crash_on_malformed    exits on a body that is not JSON
//	crash_on_oversize     exits on a body of 1 MiB or more
//	crash_on_late         exits on a move call for a match whose result it got
//	crash_on_foreign      exits on a move call for a match it was not invited to
//	ignore_refusal        (above) also sends the manager a LEAGUE_QUERY as if admitted
//
// Modes of players that other implementations field, which a league plays
// (or not) whatever league.v2 conformance says of them:
//
//	idle_after_refusal    refused, stays up and sends nothing
//	lower_types           answers with message types in lower case
//	no_match_id           answers without match_id
//	wrong_string_id       echoes a string request id wrongly (integer ids right)
//	int_id_as_string      echoes an integer request id as a string
//	no_ping               serves no ping: answers it HTTP 404 in plain text
//	refuse_oversize       answers a body over 1 MiB HTTP 413 unread and closes
//	                      the connection, with no "Connection: close" (as a
//	                      small HTTP server does)
//	no_parity             answers each even/odd move without parity_choice
//	refuse_invites        refuses every invitation at once (E012), as a player
//	                      that checks match tickets with another formula does
//
// One more mode gets nothing wrong, but takes its time:
//
//	half_deadline         answers each even/odd move when half the time to the
//	                      deadline its call states has passed: late, in time
//
// Notifications (results, standings, GAME_ERROR) are acknowledged at once in
// every mode; a JSON-RPC notification (no id) gets no response but in
// answer_notifications mode.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
)

var modes = []string{"slow", "stall", "crash", "refuse", "malformed", "invalid", "decline", "style", "wrapped",
	"wrong_link", "no_move", "wrong_tool", "request_reply", "ack_move",
	"bad_register", "ignore_refusal", "wrong_sender", "unknown_ok", "answer_notifications", "id_zero", "no_notify_ack",
	"upper", "no_move_type", "no_result_ack", "crash_on_malformed", "crash_on_oversize", "crash_on_late", "crash_on_foreign",
	"idle_after_refusal", "lower_types", "no_match_id", "wrong_string_id", "int_id_as_string", "no_ping", "no_parity",
	"refuse_oversize", "refuse_invites", "half_deadline"}

// crashStatus is the exit status of the crash_on_* modes.
const crashStatus = 3

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "badplayer:", err)
		os.Exit(1)
	}
}

func run() error {
	managerURL := flag.String("manager", "", "the manager's /mcp URL")
	name := flag.String("name", "bad", "display name")
	mode := flag.String("mode", "", "how to misbehave: "+strings.Join(modes, ", "))
	delay := flag.Duration("delay", 0, "slow mode: how long to wait before answering a move")
	port := flag.Int("port", 0, "the port to listen on (default: one the kernel picks); a program leaguetui starts may bind only its {port}")
	flag.Parse()
	switch {
	case *managerURL == "":
		return errors.New("--manager is required")
	case !slices.Contains(modes, *mode):
		return fmt.Errorf("--mode %q is not one of %v", *mode, modes)
	case *mode == "slow" && *delay <= 0:
		return errors.New("slow mode needs --delay")
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	p := &player{mode: *mode, delay: *delay, name: *name, endpoint: "http://" + ln.Addr().String() + "/mcp"}
	srv := &http.Server{Handler: http.HandlerFunc(p.serveMCP), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Println(node.ReadyListening + p.endpoint)

	if err := p.register(*managerURL); err != nil {
		switch p.mode {
		case "ignore_refusal":
			p.queryAnyway(*managerURL) // carries on as if admitted, until killed
			select {}
		case "idle_after_refusal":
			select {} // stays up, asking nothing, until killed
		}
		return err
	}
	fmt.Println(node.ReadyRegistered + p.id)
	if p.mode == "refuse" {
		// Registered and gone: every call from now on meets a closed port.
		_ = srv.Close()
	}
	select {} // until killed: SIGTERM's default action ends the process
}

// player is the misbehaving player's state.
type player struct {
	mode, name, endpoint string
	delay                time.Duration

	mu        sync.Mutex
	id, token string
	gameOvers int             // GAME_OVERs received: crash mode plays only the first match
	invited   map[string]bool // match ids invited to
	over      map[string]bool // match ids whose GAME_OVER came
}

func (p *player) register(managerURL string) error {
	env := protocol.NewEnvelope(protocol.TypeLeagueRegisterRequest, "player:"+p.name, "conv-register-"+p.name)
	req := &protocol.LeagueRegisterRequest{Envelope: env, PlayerMeta: protocol.AgentMeta{DisplayName: p.name,
		Version: "1.0.0", GameTypes: []string{"even_odd", "link_race"}, ContactEndpoint: p.endpoint,
		JoinCode: os.Getenv("LEAGUETUI_JOIN_CODE")}} // an external roster entry's, from its organiser
	method, params := "register_player", any(req)
	switch p.mode {
	case "wrapped":
		method, params = "handle_message", map[string]any{"message": req}
	case "bad_register":
		params = map[string]any{"protocol": env.Protocol, "message_type": env.MessageType, "sender": env.Sender,
			"timestamp": env.Timestamp, "player_meta": map[string]any{"display_name": p.name,
				"game_types": req.PlayerMeta.GameTypes, "contact_endpoint": p.endpoint}}
	}
	body, err := protocol.EncodeRequest(method, params, 1)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, managerURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	httpReq.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(httpReq)
	if err != nil {
		return fmt.Errorf("registration: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	result, err := protocol.ParseReply(raw)
	if err != nil {
		return fmt.Errorf("registration: %w", err)
	}
	var reg protocol.RegisterResponse
	if err := json.Unmarshal(result, &reg); err != nil || reg.Status != protocol.StatusAccepted || reg.PlayerID == "" {
		return fmt.Errorf("registration refused: %s", raw)
	}
	p.mu.Lock()
	p.id, p.token = reg.PlayerID, reg.AuthToken
	p.mu.Unlock()
	return nil
}

// queryAnyway asks the manager for the standings as if it had been
// admitted, though it was refused.
func (p *player) queryAnyway(managerURL string) {
	env := protocol.NewEnvelope(protocol.TypeLeagueQuery, "player:P01", "conv-query-"+p.name)
	body, _ := protocol.EncodeRequest("league_query", map[string]any{"protocol": env.Protocol, "message_type": env.MessageType,
		"sender": env.Sender, "timestamp": env.Timestamp, "conversation_id": env.ConversationID, "query_type": "GET_STANDINGS"}, 2)
	resp, err := http.Post(managerURL, "application/json", bytes.NewReader(body))
	if err == nil {
		resp.Body.Close()
	}
}

// refuseUnread answers 413 before reading the body, then drains the body
// unread and closes the connection, saying nothing of it in the headers
// (as Java's built-in HTTP server does): the client learns the
// connection is gone only when it next uses it.
func refuseUnread(w http.ResponseWriter, length int64) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	_, _ = buf.WriteString("HTTP/1.1 413 Request Entity Too Large\r\nContent-Type: text/plain\r\nContent-Length: 15\r\n\r\nbody too large\n")
	_ = buf.Flush()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _ = io.CopyN(io.Discard, buf, length)
}

// serveMCP answers POST /mcp. Anything but a league message (an MCP
// initialize, say) is -32601, so the manager takes this for a plain
// JSON-RPC player.
func (p *player) serveMCP(w http.ResponseWriter, r *http.Request) {
	if p.mode == "refuse_oversize" && r.ContentLength > 1<<20 {
		refuseUnread(w, r.ContentLength)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return
	}
	if p.mode == "crash_on_oversize" && len(body) >= 1<<20 {
		os.Exit(crashStatus)
	}
	req, rpcErr := protocol.ParseRequest(body)
	if rpcErr != nil {
		if p.mode == "crash_on_malformed" && rpcErr.Code == protocol.CodeParseError {
			os.Exit(crashStatus)
		}
		write(w, protocol.EncodeError(nil, rpcErr))
		return
	}
	if p.mode == "wrapped" && !wrapped(req.Method, req.Params) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write(protocol.EncodeError(req.ID, protocol.NewRPCError(-32000, "", "Missing required fields: message")))
		return
	}
	if p.mode == "no_ping" && req.Method == "ping" {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	in, ok := protocol.Route(req.Method, req.Params)
	if !ok && p.mode == "unknown_ok" {
		out, _ := protocol.EncodeResult(req.ID, map[string]string{"status": "ok"})
		write(w, out)
		return
	}
	if !ok || (p.mode == "style" && req.Method != strings.ToUpper(req.Method)) {
		write(w, protocol.EncodeError(req.ID, protocol.NewRPCError(-32601, "", "Method not found: %s", req.Method)))
		return
	}
	p.crashOnStrayCall(in)
	reply := p.reply(r.Context(), in)
	if req.IsNotification() && p.mode != "answer_notifications" {
		w.WriteHeader(http.StatusAccepted) // JSON-RPC 2.0: a notification is never answered
		return
	}
	if failure := p.refusal(in); failure != "" {
		write(w, protocol.EncodeError(req.ID, protocol.NewRPCError(protocol.CodeInternal, "", "%s", failure)))
		return
	}
	if reply == nil {
		return // held until the caller gave up: nothing to send
	}
	if p.mode == "malformed" && (in.MessageType == protocol.TypeGameInvitation || in.MessageType == protocol.TypeChooseParityCall) {
		write(w, []byte(`{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"message_type":`))
		return
	}
	if p.mode == "request_reply" && in.MessageType != protocol.TypeGameOver {
		if h, ok := reply.(protocol.Message); ok {
			out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID,
				"method": strings.ToLower(h.Header().MessageType), "params": reply})
			write(w, out)
			return
		}
	}
	if p.mode == "style" {
		out, _ := json.Marshal(reply) // the bare message, as naive peers answer
		write(w, out)
		return
	}
	id := p.echoedID(req.ID)
	out, err := protocol.EncodeResult(id, reply)
	if err != nil {
		write(w, protocol.EncodeError(req.ID, protocol.NewRPCError(-32603, "", "%v", err)))
		return
	}
	write(w, out)
}

// echoedID is the id the reply carries: the request's, or what the mode
// makes of it.
func (p *player) echoedID(id json.RawMessage) json.RawMessage {
	isString := len(id) > 0 && id[0] == '"'
	switch {
	case p.mode == "id_zero":
		return json.RawMessage("0")
	case p.mode == "wrong_string_id" && isString:
		return json.RawMessage(`"not-` + strings.Trim(string(id), `"`) + `"`)
	case p.mode == "int_id_as_string" && !isString:
		return json.RawMessage(`"` + string(id) + `"`)
	}
	return id
}

// refusal is the error the no_notify_ack and no_result_ack modes answer
// their messages with; "" for any other.
func (p *player) refusal(in protocol.Inbound) string {
	switch {
	case p.mode == "no_result_ack" && in.MessageType == protocol.TypeGameOver,
		p.mode == "no_notify_ack" && slices.Contains([]string{protocol.TypeRoundAnnouncement, protocol.TypeStandingsUpdate,
			protocol.TypeRoundCompleted}, in.MessageType):
		return "not acknowledged (badplayer " + p.mode + ")"
	}
	return ""
}

// crashOnStrayCall ends the process, in the crash_on_late and
// crash_on_foreign modes, at a move call for a match that is over or that
// it was never invited to.
func (p *player) crashOnStrayCall(in protocol.Inbound) {
	var env protocol.Envelope
	_ = protocol.Decode(in.Body, &env)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.invited == nil {
		p.invited, p.over = map[string]bool{}, map[string]bool{}
	}
	switch in.MessageType {
	case protocol.TypeGameInvitation:
		p.invited[env.MatchID] = true
	case protocol.TypeGameOver:
		p.over[env.MatchID] = true
	case protocol.TypeChooseParityCall, protocol.TypeGameMoveCall:
		if (p.mode == "crash_on_late" && p.over[env.MatchID]) || (p.mode == "crash_on_foreign" && !p.invited[env.MatchID]) {
			os.Exit(crashStatus)
		}
	}
}

// reply is the answer to a routed message, nil for one held until the
// caller gave up.
func (p *player) reply(ctx context.Context, in protocol.Inbound) any {
	var reply any
	switch in.MessageType {
	case protocol.TypeGameInvitation:
		reply = p.invitation(ctx, in.Body)
	case protocol.TypeChooseParityCall:
		reply = p.move(in.Body)
	case protocol.TypeGameMoveCall:
		reply = p.gameMove(in.Body)
	case protocol.TypeGameOver:
		p.mu.Lock()
		p.gameOvers++
		p.mu.Unlock()
		reply = map[string]string{"status": "ok"}
	default:
		reply = map[string]string{"status": "ok"}
	}
	return reply
}

// wrapped reports whether a request is in the wrapped dialect: method
// handle_message, the league message as params.message.
func wrapped(method string, params json.RawMessage) bool {
	var p struct {
		Message *struct {
			MessageType string `json:"message_type"`
		} `json:"message"`
	}
	return method == "handle_message" && json.Unmarshal(params, &p) == nil && p.Message != nil && p.Message.MessageType != ""
}

// invitation answers GAME_INVITATION, or holds it (nil) in the modes that
// stall.
func (p *player) invitation(ctx context.Context, body json.RawMessage) any {
	p.mu.Lock()
	hold := p.mode == "stall" || (p.mode == "crash" && p.gameOvers > 0)
	p.mu.Unlock()
	if hold {
		<-ctx.Done()
		return nil
	}
	var inv protocol.GameInvitation
	_ = protocol.Decode(body, &inv)
	if p.mode == "refuse_invites" {
		refusal := protocol.Reject(protocol.CodeAuthTokenInvalid, "the match ticket does not match")
		_, refusal.Envelope = p.envelope(protocol.TypeLeagueError, inv.Envelope)
		return refusal
	}
	id, env := p.envelope(protocol.TypeGameJoinAck, inv.Envelope)
	return &protocol.GameJoinAck{Envelope: env, PlayerID: id, ArrivalTimestamp: protocol.FormatTime(time.Now()),
		Accept: p.mode != "decline"}
}

// move answers CHOOSE_PARITY_CALL: "even", or what the mode says.
func (p *player) move(body json.RawMessage) any {
	var call protocol.MoveCall
	_ = protocol.Decode(body, &call)
	choice := "even"
	switch p.mode {
	case "invalid":
		choice = "maybe"
	case "upper":
		choice = "EVEN"
	case "slow":
		// Behaviour, not synchronisation: the answer leaves after the deadline.
		time.Sleep(p.delay)
	case "half_deadline":
		if deadline, _, err := protocol.ParseTime(call.Deadline); err == nil {
			time.Sleep(time.Until(deadline) / 2) // behaviour: a move late, but in time
		}
	}
	id, env := p.envelope(protocol.TypeChooseParityResponse, call.Envelope)
	if p.mode == "no_parity" {
		return struct {
			protocol.Envelope
			PlayerID string `json:"player_id"`
		}{env, id}
	}
	return &protocol.MoveAnswer{Envelope: env, PlayerID: id, Choice: choice}
}

// gameMove answers GAME_MOVE_CALL the wrong way its mode says.
func (p *player) gameMove(body json.RawMessage) any {
	var call protocol.MoveCall
	_ = protocol.Decode(body, &call)
	data := protocol.MoveData{MoveType: "navigate", Choice: "Nowhere At All"}
	switch p.mode {
	case "ack_move":
		return map[string]string{"status": "ok"}
	case "slow":
		time.Sleep(p.delay) // behaviour, not synchronisation: the answer leaves after the deadline
	case "no_move":
		data.Choice = ""
	case "wrong_tool":
		data.MoveType = "search_wikipedia"
	}
	id, env := p.envelope(protocol.TypeGameMoveResponse, call.Envelope)
	return &protocol.GameMoveResponse{Envelope: env, PlayerID: id, MoveData: data}
}

// envelope starts a reply to a referee's message.
func (p *player) envelope(messageType string, req protocol.Envelope) (string, protocol.Envelope) {
	p.mu.Lock()
	id, token := p.id, p.token
	p.mu.Unlock()
	sender := protocol.PlayerSender(id)
	if p.mode == "wrong_sender" {
		sender = protocol.PlayerSender(p.name)
	}
	if p.mode == "no_move_type" && messageType != protocol.TypeGameJoinAck {
		messageType = ""
	}
	if p.mode == "lower_types" {
		messageType = strings.ToLower(messageType)
	}
	env := protocol.NewEnvelope(messageType, sender, req.ConversationID)
	env.AuthToken, env.LeagueID, env.RoundID, env.MatchID = token, req.LeagueID, req.RoundID, req.MatchID
	if p.mode == "no_match_id" {
		env.MatchID = ""
	}
	return id, env
}

func write(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
