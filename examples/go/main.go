// Command leaguetui-starter is a league.v2 player in one file, Go's
// standard library only: it shows the wire, not leaguetui's packages.
//
// Copy it, replace the two strategy functions, and check it:
//
//	go build -o starter . && leaguetui check --strict -- ./starter --port {port} --manager {manager} --name {name} --data {data}
//
// It registers with the manager, saves its credentials and presents them
// when it registers again after a restart, answers the referee's
// invitation, move and result calls (even_odd and link_race), checks match
// tickets, serves GET /health and the MCP tools/list, and logs one line per
// match. With --pull it listens on no port (behind NAT, a firewall): it
// takes the league's calls over connections it opens to the manager, each
// request carrying the answer to the last call and bringing the next. The
// wire is described in leaguetui's docs/protocol.md and docs/joining.md.
package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// maxBody bounds a request; larger ones are refused.
const maxBody = 1 << 20

// --- strategies: replace these two -----------------------------------------

// chooseParity plays even_odd: "even" or "odd".
func chooseParity(opponentID string) string {
	return []string{"even", "odd"}[rand.Intn(2)]
}

// chooseLink plays link_race: one of the current page's links (the target
// if it is there).
func chooseLink(currentPage string, links []string, targetPage string) string {
	if slices.Contains(links, targetPage) || len(links) == 0 {
		return targetPage
	}
	return links[0]
}

// --- the wire ------------------------------------------------------------------

// msg is a league.v2 message: the flat envelope and the message's own fields.
type msg = map[string]any

// credentials are what registration gave, saved for a restart.
type credentials struct {
	PlayerID       string `json:"player_id"`
	AuthToken      string `json:"auth_token"`
	LeagueID       string `json:"league_id"`
	MatchTicketKey string `json:"match_ticket_key"`
}

type player struct {
	name, manager, endpoint, credsPath string
	mu                                 sync.Mutex // guards creds
	creds                              credentials
	renewing                           sync.Mutex // one registration at a time (--pull's workers)
}

// now is UTC in whole seconds: strict peers refuse fractions.
func now() string { return time.Now().UTC().Format("2006-01-02T15:04:05Z") }

func text(m msg, key string) string { s, _ := m[key].(string); return s }

func (p *player) identity() credentials {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.creds
}

// envelope starts a message, echoing the ids of the request it answers.
func (p *player) envelope(messageType string, request msg) msg {
	sender := p.name
	if id := p.identity().PlayerID; id != "" {
		sender = id
	}
	out := msg{"protocol": "league.v2", "message_type": messageType, "sender": "player:" + sender,
		"timestamp": now(), "conversation_id": text(request, "conversation_id")}
	for _, key := range []string{"league_id", "round_id", "match_id"} {
		if v, ok := request[key]; ok {
			out[key] = v
		}
	}
	return out
}

// register registers with the manager, presenting saved credentials if any.
func (p *player) register() error {
	saved := p.identity()
	if data, err := os.ReadFile(p.credsPath); err == nil {
		_ = json.Unmarshal(data, &saved)
	}
	p.mu.Lock() // --pull's other workers read the credentials meanwhile
	p.creds = saved
	p.mu.Unlock()
	req := p.envelope("LEAGUE_REGISTER_REQUEST", msg{"conversation_id": "conv-register-" + p.name})
	if saved.AuthToken != "" {
		req["auth_token"] = saved.AuthToken // "it is me again"
	}
	req["player_meta"] = msg{"display_name": p.name, "version": "1.0.0",
		"game_types": []string{"even_odd", "link_race"}, "contact_endpoint": p.endpoint}
	body, _ := json.Marshal(msg{"jsonrpc": "2.0", "id": 1, "method": "register_player", "params": req})
	var reply struct {
		Result struct {
			credentials
			Status string  `json:"status"`
			Reason *string `json:"reason"`
		} `json:"result"`
	}
	for attempt := 0; ; attempt++ { // the manager may still be starting
		client := http.Client{Timeout: 10 * time.Second}
		resp, err := client.Post(p.manager, "application/json", bytes.NewReader(body))
		if err == nil {
			err = json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(&reply)
			resp.Body.Close()
		}
		if err == nil {
			break
		}
		if attempt >= 9 {
			return fmt.Errorf("registration: the manager at %s never answered: %w", p.manager, err)
		}
		log.Printf("registration: %v; trying again", err)
		time.Sleep(min(time.Second<<attempt, 10*time.Second))
	}
	if reply.Result.Status != "ACCEPTED" {
		reason := ""
		if reply.Result.Reason != nil {
			reason = *reply.Result.Reason
		}
		return fmt.Errorf("registration rejected: %s", reason)
	}
	p.mu.Lock()
	p.creds = reply.Result.credentials
	p.mu.Unlock()
	data, _ := json.Marshal(reply.Result.credentials)
	if err := os.MkdirAll(filepath.Dir(p.credsPath), 0o755); err != nil {
		return err
	}
	log.Printf("registered as %s in %s", reply.Result.PlayerID, reply.Result.LeagueID)
	return os.WriteFile(p.credsPath, data, 0o600)
}

// ticketOK: a leaguetui manager gives a match_ticket_key; then a match call
// must carry mt-<hex HMAC-SHA256(key, "match_ticket\0" league\0 match\0
// referee\0)> as auth_token.
func (p *player) ticketOK(m msg) bool {
	c := p.identity()
	if c.MatchTicketKey == "" {
		return true // a manager without tickets: nothing to check
	}
	_, referee, _ := strings.Cut(text(m, "sender"), "referee:")
	league := text(m, "league_id")
	if league == "" {
		league = c.LeagueID
	}
	mac := hmac.New(sha256.New, []byte(c.MatchTicketKey))
	for _, part := range []string{"match_ticket", league, text(m, "match_id"), referee} {
		mac.Write([]byte(part + "\x00"))
	}
	want := "mt-" + hex.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(want), []byte(text(m, "auth_token")))
}

// rpcError is a JSON-RPC error to answer with.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

// handle answers one league message.
func (p *player) handle(method string, m msg) (msg, error) {
	kind := text(m, "message_type")
	if kind == "" {
		kind = method
	}
	me := p.identity().PlayerID
	with := func(base msg, extra msg) msg {
		for k, v := range extra {
			base[k] = v
		}
		return base
	}
	matchCall := slices.Contains([]string{"GAME_INVITATION", "CHOOSE_PARITY_CALL", "GAME_MOVE_CALL", "GAME_OVER"}, kind)
	if matchCall && !p.ticketOK(m) {
		return with(p.envelope("LEAGUE_ERROR", m), msg{"error_code": "E012", "error_name": "AUTH_TOKEN_INVALID",
			"error_description": "not this match's ticket", "retryable": false}), nil
	}
	switch kind {
	case "GAME_INVITATION", "handle_game_invitation":
		return with(p.envelope("GAME_JOIN_ACK", m), msg{"player_id": me, "arrival_timestamp": now(), "accept": true}), nil
	case "CHOOSE_PARITY_CALL", "choose_parity":
		context, _ := m["context"].(msg)
		return with(p.envelope("CHOOSE_PARITY_RESPONSE", m),
			msg{"player_id": me, "parity_choice": chooseParity(text(context, "opponent_id"))}), nil
	case "GAME_MOVE_CALL", "game_move_call":
		request, _ := m["move_request"].(msg)
		state, _ := request["context"].(msg)
		var links []string
		if list, ok := state["links"].([]any); ok {
			for _, l := range list {
				if s, ok := l.(string); ok {
					links = append(links, s)
				}
			}
		}
		link := chooseLink(text(state, "current_page"), links, text(state, "target_page"))
		return with(p.envelope("GAME_MOVE_RESPONSE", m),
			msg{"player_id": me, "move_data": msg{"move_type": "navigate", "choice": link}}), nil
	case "GAME_OVER", "notify_match_result":
		result, _ := m["game_result"].(msg)
		log.Printf("match %s %s: %v, winner %v", text(m, "match_id"), text(m, "game_type"), result["status"], result["winner_player_id"])
		fallthrough
	case "ROUND_ANNOUNCEMENT", "LEAGUE_STANDINGS_UPDATE", "ROUND_COMPLETED", "LEAGUE_COMPLETED", "GAME_ERROR", "ping":
		return with(p.envelope(strings.ToUpper(kind)+"_ACK", m), msg{"status": "ok"}), nil
	}
	return nil, &rpcError{-32601, "method not found: " + method}
}

var tools = func() []msg {
	var out []msg
	for _, t := range [][2]string{{"handle_game_invitation", "GAME_INVITATION: answers GAME_JOIN_ACK"},
		{"choose_parity", "CHOOSE_PARITY_CALL: answers CHOOSE_PARITY_RESPONSE"},
		{"game_move_call", "GAME_MOVE_CALL: answers GAME_MOVE_RESPONSE"},
		{"notify_match_result", "GAME_OVER: answers an acknowledgement"}} {
		out = append(out, msg{"name": t[0], "description": t[1], "inputSchema": msg{"type": "object"}})
	}
	return out
}()

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// serveMCP answers POST /mcp: league.v2 JSON-RPC and MCP's tools/list.
func (p *player) serveMCP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		reply(w, http.StatusRequestEntityTooLarge, msg{"jsonrpc": "2.0", "id": nil,
			"error": rpcError{-32600, "request body too large"}})
		return
	}
	var req struct {
		Method string           `json:"method"`
		Params msg              `json:"params"`
		ID     *json.RawMessage `json:"id"` // nil: a notification
	}
	if err != nil || json.Unmarshal(body, &req) != nil {
		reply(w, http.StatusOK, msg{"jsonrpc": "2.0", "id": nil, "error": rpcError{-32700, "parse error"}})
		return
	}
	var result any
	switch req.Method {
	case "tools/list":
		result = msg{"tools": tools}
	case "tools/call": // an MCP client: the league message is the arguments
		args, _ := req.Params["arguments"].(msg)
		var out msg
		if out, err = p.handle(text(req.Params, "name"), args); err == nil {
			encoded, _ := json.Marshal(out)
			result = msg{"content": []msg{{"type": "text", "text": string(encoded)}}, "structuredContent": out}
		}
	default:
		result, err = p.handle(req.Method, req.Params)
	}
	if req.ID == nil { // a notification: acted on, never answered
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if err != nil {
		reply(w, http.StatusOK, msg{"jsonrpc": "2.0", "id": req.ID, "error": err})
		return
	}
	reply(w, http.StatusOK, msg{"jsonrpc": "2.0", "id": req.ID, "result": result})
}

// --- --pull: no port; calls come over connections this player opens --------

// pullWorkers is how many calls a pull player answers at once: calls come
// concurrently (a notification during a match).
const pullWorkers = 4

// pull takes the league's calls over connections this player opens to the
// manager's relay, with pullWorkers workers (see pullWorker), until ctx
// ends or one of them cannot register again.
func (p *player) pull(ctx context.Context, handler http.Handler) error {
	url := strings.TrimSuffix(p.manager, "/mcp") + "/pull/" + p.identity().PlayerID + "/next"
	client := &http.Client{Timeout: time.Minute}
	ended := make(chan error, pullWorkers)
	for range pullWorkers {
		go func() { ended <- p.pullWorker(ctx, client, handler, url) }()
	}
	return <-ended
}

// pullWorker is one worker's loop: POST .../next carrying the answer to
// this worker's last call (none the first time), which the relay writes as
// that caller's HTTP response and then waits for the next call (or answers
// 204 when none came for a while); answer that call, and repeat. One
// request a call.
func (p *player) pullWorker(ctx context.Context, client *http.Client, handler http.Handler, url string) error {
	var delivery string // the last call's delivery id
	var answer []byte   // and its answer
	for ctx.Err() == nil {
		token := p.identity().AuthToken
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(answer))
		req.Header.Set("Authorization", "Bearer "+token)
		if delivery != "" {
			req.Header.Set("League-Delivery", delivery)
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if ctx.Err() != nil { // the player is stopping
			return nil
		}
		if err != nil { // the manager is away: try again shortly, answer and all
			log.Printf("poll: %v", err)
			time.Sleep(time.Second)
			continue
		}
		call, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1)) // one byte over: the handler refuses it
		resp.Body.Close()
		switch {
		case (resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusNoContent) && err == nil:
			delivery, answer = resp.Header.Get("League-Delivery"), nil // none: no call this time (204)
			if delivery != "" {
				answer = answerCall(handler, call)
			}
		case resp.StatusCode == http.StatusUnauthorized: // the token is no longer this seat's: register again, keep the answer
			if err := p.renew(token); err != nil {
				return err
			}
		case delivery != "" && slices.Contains([]int{404, 410, 413}, resp.StatusCode): // the answer went nowhere: poll on without it
			log.Printf("answer %s: HTTP %d", delivery, resp.StatusCode)
			delivery, answer = "", nil
		default:
			time.Sleep(time.Second)
		}
	}
	return nil
}

// answerCall runs one call through the handler a player that listens
// serves on /mcp: what it writes is the call's answer (an empty body for a
// notification).
func answerCall(handler http.Handler, call []byte) []byte {
	recorded := httptest.NewRecorder()
	handler.ServeHTTP(recorded, httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(call)))
	return recorded.Body.Bytes()
}

// renew registers again, once for all the workers refused token: the
// first registers, the others find a new token in use and poll on with it.
func (p *player) renew(token string) error {
	p.renewing.Lock()
	defer p.renewing.Unlock()
	if p.identity().AuthToken != token {
		return nil
	}
	return p.register()
}

func main() {
	port := flag.Int("port", 8101, "port to listen on")
	pullSeat := flag.Bool("pull", false, "listen on no port: take the league's calls over connections this player opens (a pull seat)")
	manager := flag.String("manager", "http://127.0.0.1:8000/mcp", "the manager's /mcp URL")
	name := flag.String("name", "go-starter", "display name")
	home, _ := os.UserHomeDir()
	data := flag.String("data", filepath.Join(home, ".leaguetui-starter"), "folder for the saved credentials")
	flag.Parse()
	log.SetFlags(0)
	p := &player{name: *name, manager: *manager, endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", *port),
		credsPath: filepath.Join(*data, "credentials-"+*name+".json")}
	if *pullSeat {
		p.endpoint = "pull" // the manager gives this player a pull seat
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", p.serveMCP)
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		reply(w, http.StatusOK, msg{"status": "ok", "player_id": p.identity().PlayerID})
	})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *pullSeat {
		if err := p.register(); err != nil {
			log.Fatal(err)
		}
		if err := p.pull(ctx, mux); err != nil {
			log.Fatal(err)
		}
		return
	}
	srv := &http.Server{Addr: fmt.Sprintf("127.0.0.1:%d", *port), Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	listening := make(chan error, 1)
	go func() { listening <- srv.ListenAndServe() }()
	if err := p.register(); err != nil { // the server is listening meanwhile
		log.Fatal(err)
	}
	select {
	case <-ctx.Done():
		_ = srv.Shutdown(context.Background())
	case err := <-listening:
		log.Fatal(err)
	}
}
