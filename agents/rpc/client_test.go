package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
)

// peer is a fake agent on 127.0.0.1 that records every request it gets and
// answers with answer(method, params).
type peer struct {
	*httptest.Server
	mu       sync.Mutex
	methods  []string
	ids      []json.RawMessage
	params   []map[string]any
	arrivals []time.Time
}

// answer returns the HTTP status and body for one request.
type answer func(r *http.Request, method string, params map[string]any) (int, string)

func newPeer(t *testing.T, answer answer) *peer {
	t.Helper()
	p := &peer{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Method string          `json:"method"`
			Params map[string]any  `json:"params"`
			ID     json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(body, &req)
		p.mu.Lock()
		p.methods = append(p.methods, req.Method)
		p.ids = append(p.ids, req.ID)
		p.params = append(p.params, req.Params)
		p.arrivals = append(p.arrivals, time.Now())
		p.mu.Unlock()
		status, out := answer(r, req.Method, req.Params)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, out)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *peer) endpoint() string { return p.URL + "/mcp" }

func (p *peer) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.methods)
}

func (p *peer) hits() int { return len(p.seen()) }

const (
	joinAck        = `{"protocol":"league.v2","message_type":"GAME_JOIN_ACK","sender":"player:P01","match_id":"R1M1","player_id":"P01","accept":true}`
	methodNotFound = `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`
)

func result(msg string) string { return `{"jsonrpc":"2.0","id":1,"result":` + msg + `}` }

func invitationMsg() *protocol.GameInvitation {
	msg := &protocol.GameInvitation{Envelope: protocol.NewEnvelope(protocol.TypeGameInvitation, "referee:REF01", "conv-r1m1-001"),
		GameType: "even_odd", RoleInMatch: protocol.RolePlayerA, OpponentID: "P02"}
	msg.MatchID = "R1M1"
	return msg
}

// fastRetry retries quickly and never opens the circuit.
var fastRetry = config.Retry{Attempts: 3, InitialDelay: 10 * time.Millisecond, Multiplier: 2}

func newClient(retry config.Retry, breaker config.Breaker) *rpc.Client {
	return rpc.NewClient(rpc.Options{Retry: retry, Breaker: breaker})
}

// TestClientRetriesOnlyTransportFailures: timeouts (E001) and connection
// failures (E009) are retried up to the attempts; an answer, even an error,
// is not.
func TestClientRetriesOnlyTransportFailures(t *testing.T) {
	tests := []struct {
		name         string
		answer       answer
		wantAttempts int
		wantCode     string // league code of the error, "" for none or an answer
		check        func(error) bool
	}{
		{
			name: "timeout",
			answer: func(r *http.Request, _ string, _ map[string]any) (int, string) {
				<-r.Context().Done() // never answers in time
				return 200, result(joinAck)
			},
			wantAttempts: 3, wantCode: protocol.CodeTimeout,
		},
		{
			name:         "HTTP error without a body",
			answer:       func(*http.Request, string, map[string]any) (int, string) { return http.StatusBadGateway, "" },
			wantAttempts: 3, wantCode: protocol.CodeConnection,
		},
		{
			name: "JSON-RPC internal error",
			answer: func(*http.Request, string, map[string]any) (int, string) {
				return 500, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}`
			},
			wantAttempts: 1,
			check: func(err error) bool {
				var e *protocol.RPCError
				return errors.As(err, &e) && e.Code == -32603
			},
		},
		{
			name: "LEAGUE_ERROR result",
			answer: func(*http.Request, string, map[string]any) (int, string) {
				return 200, result(`{"message_type":"LEAGUE_ERROR","error_code":"E012","error_name":"AUTH_TOKEN_INVALID"}`)
			},
			wantAttempts: 1, wantCode: protocol.CodeAuthTokenInvalid,
		},
		{
			name: "unreadable reply",
			answer: func(*http.Request, string, map[string]any) (int, string) {
				return 200, `<html>oops</html>`
			},
			wantAttempts: 1,
			check:        func(err error) bool { return err != nil },
		},
		{
			name:         "success",
			answer:       func(*http.Request, string, map[string]any) (int, string) { return 200, result(joinAck) },
			wantAttempts: 1,
			check:        func(err error) bool { return err == nil },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPeer(t, tt.answer)
			c := newClient(fastRetry, config.Breaker{})
			var retries []int
			_, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(),
				Timeout: 150 * time.Millisecond, BeforeRetry: func(attempt int, _ error) { retries = append(retries, attempt) }})
			if got := p.hits(); got != tt.wantAttempts {
				t.Errorf("peer got %d requests, want %d (err %v)", got, tt.wantAttempts, err)
			}
			if want := tt.wantAttempts - 1; len(retries) != want {
				t.Errorf("BeforeRetry ran for attempts %v, want %d calls", retries, want)
			}
			if tt.wantCode != "" && rpc.ErrorCode(err) != tt.wantCode {
				t.Errorf("error %v has code %q, want %s", err, rpc.ErrorCode(err), tt.wantCode)
			}
			if tt.check != nil && !tt.check(err) {
				t.Errorf("unexpected error %v", err)
			}
		})
	}
}

func TestClientConnectionRefused(t *testing.T) {
	p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return 200, result(joinAck) })
	endpoint := p.endpoint()
	p.Close() // nothing listens there any more
	c := newClient(fastRetry, config.Breaker{})
	retries := 0
	_, err := c.Send(context.Background(), rpc.Call{Endpoint: endpoint, Message: invitationMsg(), Timeout: time.Second,
		BeforeRetry: func(int, error) { retries++ }})
	var callErr *rpc.CallError
	if !errors.As(err, &callErr) || callErr.Code != protocol.CodeConnection || callErr.Endpoint != endpoint {
		t.Errorf("err = %v, want a CallError E009 for %s", err, endpoint)
	}
	if retries != fastRetry.Attempts-1 {
		t.Errorf("%d retries, want %d", retries, fastRetry.Attempts-1)
	}
}

// TestClientBackoff: the waits between attempts follow config.Retry.
func TestClientBackoff(t *testing.T) {
	retry := config.Retry{Attempts: 4, InitialDelay: 40 * time.Millisecond, Multiplier: 2}
	p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return http.StatusServiceUnavailable, "" })
	c := newClient(retry, config.Breaker{})
	start := time.Now()
	if _, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second}); err == nil {
		t.Fatal("Send succeeded against a failing peer")
	}
	p.mu.Lock()
	arrivals := slices.Clone(p.arrivals)
	p.mu.Unlock()
	if len(arrivals) != retry.Attempts {
		t.Fatalf("%d attempts, want %d", len(arrivals), retry.Attempts)
	}
	var total time.Duration
	for n := 1; n < len(arrivals); n++ {
		gap, want := arrivals[n].Sub(arrivals[n-1]), retry.Delay(n)
		total += want
		if gap < want {
			t.Errorf("wait before attempt %d was %v, want at least %v", n+1, gap, want)
		}
	}
	if elapsed := time.Since(start); elapsed < total {
		t.Errorf("Send took %v, less than the backoff total %v", elapsed, total)
	}

	// A cancelled context ends the wait early.
	ctx, cancel := context.WithCancel(context.Background())
	slow := newClient(config.Retry{Attempts: 3, InitialDelay: time.Hour, Multiplier: 2}, config.Breaker{})
	done := make(chan error, 1)
	go func() {
		_, err := slow.Send(ctx, rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second,
			BeforeRetry: func(int, error) { cancel() }})
		done <- err
	}()
	select {
	case err := <-done:
		if rpc.ErrorCode(err) != protocol.CodeConnection {
			t.Errorf("cancelled Send = %v, want the last E009", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Send kept waiting out an hour's backoff after its context was cancelled")
	}
}

// onlyMethod answers -32601 to every method but the one given.
func onlyMethod(method, reply string) answer {
	return func(_ *http.Request, m string, _ map[string]any) (int, string) {
		if m != method {
			return 200, methodNotFound
		}
		return 200, result(reply)
	}
}

// TestClientMethodFallback: on -32601 the same message goes out under the
// next alias, and the one that worked is remembered per endpoint.
func TestClientMethodFallback(t *testing.T) {
	c := newClient(fastRetry, config.Breaker{})
	send := func(p *peer, msg protocol.Message) json.RawMessage {
		t.Helper()
		raw, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: msg, Timeout: time.Second})
		if err != nil {
			t.Fatalf("Send %s: %v (peer saw %v)", msg.Header().MessageType, err, p.seen())
		}
		return raw
	}
	upper := newPeer(t, onlyMethod("GAME_INVITATION", joinAck))
	send(upper, invitationMsg())
	send(upper, invitationMsg())
	if got, want := upper.seen(), []string{"handle_game_invitation", "GAME_INVITATION", "GAME_INVITATION"}; !slices.Equal(got, want) {
		t.Errorf("methods tried = %v, want %v (fallback once, then the remembered alias)", got, want)
	}

	// The alias is remembered per endpoint, not for every peer.
	other := newPeer(t, onlyMethod("GAME_INVITATION", joinAck))
	send(other, invitationMsg())
	if got, want := other.seen(), []string{"handle_game_invitation", "GAME_INVITATION"}; !slices.Equal(got, want) {
		t.Errorf("another endpoint: methods tried = %v, want %v", got, want)
	}

	// ... and per message type.
	parity := newPeer(t, onlyMethod("parity_choose", `{"message_type":"RESPONSE_PARITY_CHOOSE","match_id":"R1M1","parity_choice":"odd"}`))
	call := &protocol.MoveCall{Envelope: protocol.NewEnvelope(protocol.TypeChooseParityCall, "referee:REF01", "c"), PlayerID: "P01"}
	raw := send(parity, call)
	var resp protocol.MoveAnswer
	if err := protocol.Decode(raw, &resp); err != nil || resp.Choice != "odd" {
		t.Errorf("reply %s decoded to %+v, %v", raw, resp, err)
	}
	if got, want := parity.seen(), []string{"choose_parity", "parity_choose"}; !slices.Equal(got, want) {
		t.Errorf("methods tried = %v, want %v", got, want)
	}

	// Requests carry integer ids, as strict peers require.
	upper.mu.Lock()
	defer upper.mu.Unlock()
	for _, id := range upper.ids {
		var n int64
		if err := json.Unmarshal(id, &n); err != nil {
			t.Errorf("request id %s is not an integer", id)
		}
	}
}

// TestClientToolsCallLastResort: a peer that only speaks MCP tools/call gets
// the message as a tool call after every alias failed.
func TestClientToolsCallLastResort(t *testing.T) {
	var mu sync.Mutex
	var toolName string
	var arguments map[string]any
	p := newPeer(t, func(_ *http.Request, method string, params map[string]any) (int, string) {
		if method != protocol.MethodToolsCall {
			return 200, methodNotFound
		}
		mu.Lock()
		toolName, _ = params["name"].(string)
		arguments, _ = params["arguments"].(map[string]any)
		mu.Unlock()
		text, _ := json.Marshal(joinAck)
		return 200, result(`{"content":[{"type":"text","text":` + string(text) + `}]}`)
	})
	c := newClient(fastRetry, config.Breaker{})
	var ack protocol.GameJoinAck
	if err := c.Do(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second}, &ack); err != nil {
		t.Fatalf("Do: %v (peer saw %v)", err, p.seen())
	}
	if !ack.Accept || ack.MatchID != "R1M1" || ack.PlayerID != "P01" {
		t.Errorf("ack = %+v, want the GAME_JOIN_ACK from content[0].text", ack)
	}
	want := append(slices.Clone(protocol.SendMethods[protocol.TypeGameInvitation]), "handle_message", protocol.MethodToolsCall)
	if got := p.seen(); !slices.Equal(got, want) {
		t.Errorf("methods tried = %v, want %v", got, want)
	}
	mu.Lock()
	if toolName != "handle_game_invitation" || arguments["message_type"] != "GAME_INVITATION" || arguments["match_id"] != "R1M1" {
		t.Errorf("tools/call name %q, arguments %v; want handle_game_invitation and the invitation", toolName, arguments)
	}
	mu.Unlock()

	// tools/call is remembered too.
	if _, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	if got := p.seen(); len(got) != len(want)+1 || got[len(got)-1] != protocol.MethodToolsCall {
		t.Errorf("second send tried %v, want tools/call at once", got[len(want):])
	}
}

func TestClientEveryAliasNotFound(t *testing.T) {
	p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return 404, methodNotFound })
	c := newClient(fastRetry, config.Breaker{})
	_, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second})
	var rpcErr *protocol.RPCError
	if !errors.As(err, &rpcErr) || rpcErr.Code != protocol.CodeMethodNotFound {
		t.Errorf("err = %v, want -32601", err)
	}
	// One pass over the aliases: "method not found" is an answer, not retried.
	if want := len(protocol.SendMethods[protocol.TypeGameInvitation]) + 2; p.hits() != want { // + handle_message, tools/call
		t.Errorf("peer got %d requests (%v), want %d", p.hits(), p.seen(), want)
	}
}

// TestClientCircuitBreaker: after N consecutive failures to get an answer
// the circuit opens. It only shortens repeats: a repeated call fails fast
// without reaching the peer, and a call of its own gets one real attempt
// but no retries. When the peer answers such a call the circuit closes.
func TestClientCircuitBreaker(t *testing.T) {
	const failures = 3
	var down atomic.Bool
	down.Store(true)
	p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) {
		if down.Load() {
			return http.StatusServiceUnavailable, ""
		}
		return 200, result(joinAck)
	})
	alive := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return 200, result(joinAck) })
	c := newClient(config.Retry{Attempts: 3, InitialDelay: time.Hour, Multiplier: 2}, config.Breaker{Failures: failures, Reset: time.Hour})
	send := func(p *peer, attempts int, repeat bool) error {
		_, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second,
			Attempts: attempts, Repeat: repeat})
		return err
	}
	for i := 1; i <= failures; i++ {
		if c.BreakerOpen(p.endpoint()) {
			t.Fatalf("circuit open after %d failures, want it closed until %d", i-1, failures)
		}
		if err := send(p, 1, false); rpc.ErrorCode(err) != protocol.CodeConnection {
			t.Fatalf("call %d: %v, want E009", i, err)
		}
	}
	if !c.BreakerOpen(p.endpoint()) {
		t.Fatalf("circuit closed after %d consecutive failures", failures)
	}

	// Open: a repeat fails at once without reaching the peer.
	err := send(p, 1, true)
	if !errors.Is(err, gobreaker.ErrOpenState) || !rpc.RefusedByBreaker(err) || rpc.ErrorCode(err) != protocol.CodeConnection {
		t.Errorf("repeat: %v, want E009 wrapping the open circuit", err)
	}
	if p.hits() != failures {
		t.Errorf("peer got %d requests, want %d: an open circuit lets no repeat through", p.hits(), failures)
	}

	// A call of its own reaches the peer once and fails with the peer's
	// own error, not retried (an hour's backoff would show).
	start := time.Now()
	err = send(p, 3, false)
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("a call to a peer behind an open circuit took %v", elapsed)
	}
	if rpc.ErrorCode(err) != protocol.CodeConnection || rpc.RefusedByBreaker(err) || !strings.Contains(err.Error(), "503") {
		t.Errorf("call: %v, want the peer's own E009 (HTTP 503)", err)
	}
	if p.hits() != failures+1 {
		t.Errorf("peer got %d requests, want %d: one real attempt, no retries", p.hits(), failures+1)
	}

	// Back: the next call gets through and closes the circuit.
	down.Store(false)
	if err := send(p, 1, false); err != nil || c.BreakerOpen(p.endpoint()) {
		t.Errorf("the peer back: %v, open %v; want an answer and the circuit closed", err, c.BreakerOpen(p.endpoint()))
	}
	if err := send(p, 1, true); err != nil || p.hits() != failures+3 {
		t.Errorf("a repeat once closed: %v, %d requests; want it through", err, p.hits())
	}

	// Other endpoints have their own circuit.
	if err := send(alive, 1, false); err != nil || c.BreakerOpen(alive.endpoint()) {
		t.Errorf("a healthy endpoint: %v, open %v", err, c.BreakerOpen(alive.endpoint()))
	}
}

// TestClientBreakerIgnoresAnswers: a peer that answers with errors is alive.
func TestClientBreakerIgnoresAnswers(t *testing.T) {
	p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) {
		return 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad params"}}`
	})
	c := newClient(fastRetry, config.Breaker{Failures: 2, Reset: time.Hour})
	for i := 0; i < 5; i++ {
		if _, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second}); err == nil {
			t.Fatal("want the -32602 error")
		}
	}
	if c.BreakerOpen(p.endpoint()) || p.hits() != 5 {
		t.Errorf("circuit open %v after 5 error answers (%d reached the peer); want closed, 5", c.BreakerOpen(p.endpoint()), p.hits())
	}
}

func TestClientBareReply(t *testing.T) {
	p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return 200, joinAck })
	c := newClient(fastRetry, config.Breaker{})
	var ack protocol.GameJoinAck
	if err := c.Do(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second}, &ack); err != nil ||
		!ack.Accept || ack.MatchID != "R1M1" {
		t.Errorf("bare reply decoded to %+v, %v", ack, err)
	}
}

// TestMailerOrder: notifications to one agent arrive in the order posted,
// and a dead agent does not hold up another.
func TestMailerOrder(t *testing.T) {
	p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return 200, result(`{"status":"ok"}`) })
	dead := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return 503, "" })
	c := newClient(config.Retry{Attempts: 1}, config.Breaker{})
	mailer := rpc.NewMailer(c, slog.New(slog.DiscardHandler))
	const n = 30
	for i := 1; i <= n; i++ {
		msg := &protocol.RoundCompleted{Envelope: protocol.NewEnvelope(protocol.TypeRoundCompleted, "league_manager", "c")}
		msg.RoundID = protocol.RoundID(i)
		mailer.Post(dead.endpoint(), msg, time.Second)
		mailer.Post(p.endpoint(), msg, time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mailer.Drain(ctx)
	if ctx.Err() != nil {
		t.Fatal("Drain did not finish")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.params) != n {
		t.Fatalf("peer got %d notifications, want %d", len(p.params), n)
	}
	for i, params := range p.params {
		if params["round_id"] != float64(i+1) || p.methods[i] != "notify_round_completed" {
			t.Errorf("notification %d: %s round %v, want notify_round_completed round %d", i+1, p.methods[i], params["round_id"], i+1)
		}
	}
}

// TestClientToolsCallForAnyMessageType: a message type without aliases (a
// player's GAME_JOIN_ACK posted back on its own) goes under its own name,
// then as a tool of that name, without the client panicking.
func TestClientToolsCallForAnyMessageType(t *testing.T) {
	var mu sync.Mutex
	var toolName string
	p := newPeer(t, func(_ *http.Request, method string, params map[string]any) (int, string) {
		if method != protocol.MethodToolsCall {
			return 200, methodNotFound
		}
		mu.Lock()
		toolName, _ = params["name"].(string)
		mu.Unlock()
		return 200, result(`{"status":"ok"}`)
	})
	c := newClient(fastRetry, config.Breaker{})
	msg := &protocol.GameJoinAck{Envelope: protocol.NewEnvelope(protocol.TypeGameJoinAck, "player:P01", "conv-r1m1-001"), Accept: true}
	if _, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: msg, Timeout: time.Second}); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if got, want := p.seen(), []string{"GAME_JOIN_ACK", "handle_message", protocol.MethodToolsCall}; !slices.Equal(got, want) {
		t.Errorf("methods tried = %v, want %v", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if toolName != "GAME_JOIN_ACK" {
		t.Errorf("tool name %q, want GAME_JOIN_ACK", toolName)
	}
}

// TestClientRequestHeaders: a call carries JSON, the Accept MCP peers
// insist on and its length, and nothing else a peer would have to parse:
// no gzip (no Accept-Encoding) and no User-Agent.
func TestClientRequestHeaders(t *testing.T) {
	headers := make(chan http.Header, 1)
	p := newPeer(t, func(r *http.Request, _ string, _ map[string]any) (int, string) {
		headers <- r.Header.Clone()
		return 200, result(joinAck)
	})
	c := newClient(fastRetry, config.Breaker{})
	if _, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	h := <-headers
	want := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	h.Del("Content-Length") // its value is the body's length
	if !equalHeaders(h, want) {
		t.Errorf("request headers %v, want %v and Content-Length", h, want)
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// TestClientDoesNotFollowRedirects: a peer that answers with a redirect
// does not get the call sent on elsewhere (with the match ticket it
// carries): the redirect is a failed call to that peer.
func TestClientDoesNotFollowRedirects(t *testing.T) {
	elsewhere := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return 200, result(joinAck) })
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, elsewhere.endpoint(), status)
		}))
		c := newClient(fastRetry, config.Breaker{})
		_, err := c.Send(context.Background(), rpc.Call{Endpoint: redirecting.URL + "/mcp", Message: invitationMsg(),
			Timeout: time.Second, Attempts: 1})
		redirecting.Close()
		if err == nil {
			t.Errorf("HTTP %d: the call succeeded, want an error", status)
		}
	}
	if n := elsewhere.hits(); n != 0 {
		t.Errorf("the redirect's target got %d requests, want none", n)
	}
}

// TestClientRefusesAnEndlessReply: a reply is read up to the size of the
// largest request a server takes; a longer one is an answer we refuse
// (not retried, not held), not a whole reply in memory.
func TestClientRefusesAnEndlessReply(t *testing.T) {
	huge := result(`{"pad":"` + strings.Repeat("x", 2*rpc.MaxBodyBytes) + `"}`)
	p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return 200, huge })
	c := newClient(fastRetry, config.Breaker{})
	_, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: 5 * time.Second})
	var callErr *rpc.CallError
	var tooLarge *rpc.ReplyTooLargeError
	if err == nil || errors.As(err, &callErr) || !errors.As(err, &tooLarge) || tooLarge.Limit != rpc.MaxBodyBytes {
		t.Errorf("err = %v, want a refused reply, not a transport failure", err)
	}
	if n := p.hits(); n != 1 {
		t.Errorf("%d requests, want 1: a refused reply is not retried", n)
	}
}
