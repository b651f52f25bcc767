// Command badreferee is a league.v2 referee that gets one thing wrong on
// purpose, chosen with --mode, so that the tests of `leaguetui check
// --role referee` (league/check) see each referee check fail alone. It
// registers with --manager, acknowledges start_match at once and plays the
// even/odd match with both players: invitations, move calls (one attempt,
// no retries), a draw, GAME_OVER to both and the report. It listens on
// 127.0.0.1 only.
//
// Modes (what it gets wrong):
//
//	good            nothing: every check passes
//	bad_register    registers without referee_meta.version
//	ignore_refusal  refused, neither registers again nor exits
//	wrong_sender    sends as referee:<its name>, not the id it was given
//	no_ack_start    answers start_match with an error, and plays nothing
//	invite_one      invites player A only
//	no_move_call    asks no player for a move
//	wrong_winner    announces and reports the loser as the winner
//	report_twice    reports every match twice
//	early_tl        promises a 30 s deadline but gives a technical loss after --move-timeout
//	start_upper     serves start_match only under the method START_MATCH (another
//	                dialect): the plain start_match is -32601
//	refuse_start    answers start_match, in every form, with a JSON-RPC error of
//	                --refuse-code (default -32000) "unknown message type", as a
//	                referee of another implementation that knows no START_MATCH
//	                does, and plays nothing; it says "badreferee: refused" and the
//	                method on stderr each time
//
// One more mode gets nothing wrong but plays as referees of another
// implementation do:
//
//	announced       serves no start_match (-32601, whatever the method's
//	                name) and plays each match a round announcement gives it,
//	                --start-delay after the announcement
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
)

var modes = []string{"good", "bad_register", "ignore_refusal", "wrong_sender", "no_ack_start", "invite_one",
	"no_move_call", "wrong_winner", "report_twice", "early_tl", "announced", "start_upper", "refuse_start"}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "badreferee:", err)
		os.Exit(1)
	}
}

type referee struct {
	mode, name, endpoint, managerURL string
	moveTimeout, startDelay          time.Duration
	refuseCode                       int
	mu                               sync.Mutex
	id, token, managerKey            string
	ids                              int64
	wg                               sync.WaitGroup
	taken                            map[string]bool // matches taken from announcements (mode announced)
}

func run() error {
	managerURL := flag.String("manager", "", "the manager's /mcp URL")
	name := flag.String("name", "badref", "display name")
	mode := flag.String("mode", "good", "what to get wrong: one of the modes in the package comment")
	moveTimeout := flag.Duration("move-timeout", 4*time.Second, "how long a player has for its move")
	startDelay := flag.Duration("start-delay", 0, "with --mode announced: how long after the announcement a match starts")
	refuseCode := flag.Int("refuse-code", -32000, "with --mode refuse_start: the JSON-RPC error code start_match is answered with")
	port := flag.Int("port", 0, "the port to listen on (default: one the kernel picks); a program leaguetui starts may bind only its {port}")
	flag.Parse()
	if *managerURL == "" || !slices.Contains(modes, *mode) {
		return fmt.Errorf("--manager is required, and --mode one of %v", modes)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	r := &referee{mode: *mode, name: *name, managerURL: *managerURL, moveTimeout: *moveTimeout, startDelay: *startDelay,
		refuseCode: *refuseCode,
		endpoint:   "http://" + ln.Addr().String() + "/mcp"}
	srv := &http.Server{Handler: http.HandlerFunc(r.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Println(node.ReadyListening + r.endpoint) // what leaguetest.StartProgram waits for
	if err := r.register(); err != nil {
		if r.mode == "ignore_refusal" {
			select {} // carries on as if admitted, until killed
		}
		return err
	}
	select {}
}

func (r *referee) register() error {
	meta := map[string]any{"display_name": r.name, "version": "1.0.0", "game_types": []string{"even_odd"},
		"contact_endpoint": r.endpoint, "max_concurrent_matches": 1}
	if r.mode == "bad_register" {
		delete(meta, "version")
	}
	env := protocol.NewEnvelope(protocol.TypeRefereeRegisterRequest, "referee:"+r.name, "conv-register-"+r.name)
	var resp protocol.RegisterResponse
	if err := r.send(r.managerURL, "register_referee", map[string]any{"protocol": env.Protocol,
		"message_type": env.MessageType, "sender": env.Sender, "timestamp": env.Timestamp,
		"conversation_id": env.ConversationID, "referee_meta": meta}, 10*time.Second, &resp); err != nil {
		return err
	}
	if resp.Status != protocol.StatusAccepted {
		return fmt.Errorf("registration refused: %v", resp.Reason)
	}
	fmt.Println(node.ReadyRegistered + resp.RefereeID)
	r.mu.Lock()
	r.id, r.token, r.managerKey = resp.RefereeID, resp.AuthToken, resp.ManagerKey
	r.mu.Unlock()
	return nil
}

// send posts one request and reads its result into out (may be nil).
func (r *referee) send(url, method string, msg any, timeout time.Duration, out any) error {
	r.mu.Lock()
	r.ids++
	id := r.ids
	r.mu.Unlock()
	body, err := protocol.EncodeRequest(method, msg, id)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	result, err := protocol.ParseReply(raw)
	if err != nil || out == nil {
		return err
	}
	return protocol.Decode(result, out.(protocol.Message))
}

func (r *referee) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	rpcReq, rpcErr := protocol.ParseRequest(body)
	if rpcErr != nil {
		_, _ = w.Write(protocol.EncodeError(nil, rpcErr))
		return
	}
	in, ok := rpcReq.Route()
	if r.mode == "start_upper" && rpcReq.Method == "start_match" {
		ok = false // this dialect knows START_MATCH only
	}
	if !ok {
		_, _ = w.Write(protocol.EncodeError(rpcReq.ID, protocol.NewRPCError(protocol.CodeMethodNotFound, "", "method not found: %s", rpcReq.Method)))
		return
	}
	var reply any = map[string]string{"status": "ok"}
	if r.mode == "announced" && in.MessageType == protocol.TypeStartMatch {
		fmt.Fprintln(os.Stderr, "badreferee: declined", rpcReq.Method) // the test counts these
		_, _ = w.Write(protocol.EncodeError(rpcReq.ID, protocol.NewRPCError(protocol.CodeMethodNotFound, "", "method not found: %s", rpcReq.Method)))
		return
	}
	if r.mode == "refuse_start" && in.MessageType == protocol.TypeStartMatch {
		fmt.Fprintln(os.Stderr, "badreferee: refused", rpcReq.Method) // the test counts these
		_, _ = w.Write(protocol.EncodeError(rpcReq.ID, protocol.NewRPCError(r.refuseCode, "", "unknown message type: %s", in.MessageType)))
		return
	}
	if r.mode == "announced" && in.MessageType == protocol.TypeRoundAnnouncement {
		r.takeAnnounced(in.Body)
	}
	if in.MessageType == protocol.TypeStartMatch {
		var start protocol.StartMatch
		_ = protocol.Decode(in.Body, &start)
		if r.mode == "no_ack_start" {
			_, _ = w.Write(protocol.EncodeError(rpcReq.ID, protocol.NewRPCError(protocol.CodeInternal, "", "badreferee takes no match")))
			return
		}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			r.play(start)
		}()
	}
	if rpcReq.IsNotification() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	out, _ := protocol.EncodeResult(rpcReq.ID, reply)
	_, _ = w.Write(out)
}

// sender is how this referee signs its messages.
func (r *referee) sender() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mode == "wrong_sender" {
		return protocol.RefereeSender(r.name)
	}
	return protocol.RefereeSender(r.id)
}

func (r *referee) envelope(messageType string, start protocol.StartMatch, ticket string) protocol.Envelope {
	env := protocol.NewEnvelope(messageType, r.sender(), "conv-"+start.MatchID)
	env.LeagueID, env.RoundID, env.MatchID, env.AuthToken = start.LeagueID, start.RoundID, start.MatchID, ticket
	return env
}

// play runs one match: invitations, moves, result, report.
func (r *referee) play(start protocol.StartMatch) {
	seats := []struct{ id, opponent, role, endpoint, ticket string }{
		{start.PlayerAID, start.PlayerBID, protocol.RolePlayerA, start.PlayerAEndpoint, start.PlayerATicket},
		{start.PlayerBID, start.PlayerAID, protocol.RolePlayerB, start.PlayerBEndpoint, start.PlayerBTicket},
	}
	if r.mode == "invite_one" {
		seats = seats[:1]
	}
	for _, s := range seats {
		inv := &protocol.GameInvitation{Envelope: r.envelope(protocol.TypeGameInvitation, start, s.ticket),
			GameType: start.GameType, RoleInMatch: s.role, OpponentID: s.opponent, PlayerID: s.id}
		if err := r.send(s.endpoint, "handle_game_invitation", inv, 5*time.Second, &protocol.GameJoinAck{}); err != nil {
			return
		}
	}
	choices := map[string]string{}
	if r.mode != "no_move_call" {
		stated := r.moveTimeout
		if r.mode == "early_tl" {
			stated = 30 * time.Second
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, s := range seats {
			wg.Add(1)
			go func() {
				defer wg.Done()
				call := &protocol.MoveCall{Envelope: r.envelope(protocol.TypeChooseParityCall, start, s.ticket),
					PlayerID: s.id, GameType: start.GameType, Context: protocol.MoveContext{OpponentID: s.opponent, RoundID: start.RoundID},
					Deadline: protocol.FormatTime(time.Now().Add(stated))}
				var resp protocol.MoveAnswer
				if r.send(s.endpoint, "choose_parity", call, r.moveTimeout, &resp) == nil {
					mu.Lock()
					choices[s.id] = resp.Choice
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
	}
	r.finish(start, choices, seats[0].ticket, seats[len(seats)-1].ticket)
}

// finish decides the match, tells both players and reports it.
func (r *referee) finish(start protocol.StartMatch, choices map[string]string, ticketA, ticketB string) {
	a, b := start.PlayerAID, start.PlayerBID
	n := rand.IntN(10) + 1
	parity := map[bool]string{true: "even", false: "odd"}[n%2 == 0]
	status, winner := "DRAW", ""
	switch {
	case choices[a] == "" && choices[b] == "":
		status = "TECHNICAL_LOSS"
	case choices[a] == "":
		status, winner = "TECHNICAL_LOSS", b
	case choices[b] == "":
		status, winner = "TECHNICAL_LOSS", a
	case choices[a] != choices[b]:
		status, winner = "WIN", a
		if choices[b] == parity {
			winner = b
		}
	}
	if r.mode == "wrong_winner" && status == "WIN" {
		winner = map[string]string{a: b, b: a}[winner]
	}
	var winnerPtr *string
	if winner != "" {
		winnerPtr = &winner
	}
	result := protocol.GameResult{Status: status, WinnerPlayerID: winnerPtr, Choices: choices, Reason: "badreferee",
		Details: map[string]any{"drawn_number": n, "number_parity": parity}}
	for i, endpoint := range []string{start.PlayerAEndpoint, start.PlayerBEndpoint} {
		ticket := []string{ticketA, ticketB}[i]
		over := &protocol.GameOver{Envelope: r.envelope(protocol.TypeGameOver, start, ticket), GameType: start.GameType, GameResult: result}
		_ = r.send(endpoint, "notify_match_result", over, 5*time.Second, nil)
	}
	score := map[string]int{a: 1, b: 1}
	if winner != "" {
		score = map[string]int{a: 0, b: 0}
		score[winner] = 3
	}
	r.mu.Lock()
	token := r.token
	r.mu.Unlock()
	env := r.envelope(protocol.TypeMatchResultReport, start, token)
	report := &protocol.MatchResultReport{Envelope: env, GameType: start.GameType, Result: protocol.ReportResult{
		Winner: winnerPtr, Score: score, Status: status, Details: protocol.ReportDetails{Choices: choices,
			Game: map[string]any{"drawn_number": n}}}}
	times := 1
	if r.mode == "report_twice" {
		times = 2
	}
	for range times {
		if err := r.send(r.managerURL, "report_match_result", report, 10*time.Second, nil); err != nil {
			fmt.Fprintln(os.Stderr, "badreferee: report:", err)
		}
	}
}

// takeAnnounced plays, each once, the matches a round announcement gives
// this referee (by id, else by endpoint), with the endpoints it names.
func (r *referee) takeAnnounced(body []byte) {
	var ann protocol.RoundAnnouncement
	if err := protocol.Decode(body, &ann); err != nil {
		fmt.Fprintln(os.Stderr, "badreferee: round announcement:", err)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.taken == nil {
		r.taken = map[string]bool{}
	}
	for _, m := range ann.Matches {
		mine := m.RefereeID == r.id || (m.RefereeID == "" && m.RefereeEndpoint == r.endpoint)
		if !mine || r.taken[m.MatchID] {
			continue
		}
		r.taken[m.MatchID] = true
		start := protocol.StartMatch{Envelope: ann.Envelope, GameType: m.GameType, PlayerAID: m.PlayerAID,
			PlayerBID: m.PlayerBID, PlayerAEndpoint: m.PlayerAEndpoint, PlayerBEndpoint: m.PlayerBEndpoint}
		start.MatchID = m.MatchID
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			time.Sleep(r.startDelay) // as a slower referee would: not a synchronisation
			r.play(start)
		}()
	}
}
