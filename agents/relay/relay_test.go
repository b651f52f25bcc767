package relay_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/relay"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// mux adapts http.ServeMux to the relay's Router.
type mux struct{ *http.ServeMux }

func (m mux) HandleHTTP(pattern string, h http.HandlerFunc) { m.HandleFunc(pattern, h) }

// league is a relay served over real HTTP on 127.0.0.1, with seat P01
// (token tok-one) and P02 (tok-two) open.
type league struct {
	t     *testing.T
	relay *relay.Relay
	url   string
}

func newLeague(t *testing.T, opts relay.Options) *league {
	r := relay.New(opts)
	m := mux{http.NewServeMux()}
	r.Mount(m)
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	r.Open("P01", "tok-one")
	r.Open("P02", "tok-two")
	return &league{t: t, relay: r, url: srv.URL}
}

type reply struct {
	status   int
	body     string
	delivery string
}

// do sends one request, with token as its bearer unless "".
func (l *league) do(method, path, token string, body []byte) reply {
	l.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, l.url+path, bytes.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, body: string(raw), delivery: resp.Header.Get(relay.DeliveryHeader)}
}

// call posts a referee's call to seat agent in the background; its
// response comes on the channel.
func (l *league) call(agent, body string, timeout time.Duration) <-chan reply {
	out := make(chan reply, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, l.url+"/pull/"+agent+"/mcp", strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			out <- reply{status: -1, body: err.Error()}
			return
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		out <- reply{status: resp.StatusCode, body: string(raw)}
	}()
	return out
}

// poll takes the seat's next call, failing unless one comes.
func (l *league) poll(agent, token string) reply {
	l.t.Helper()
	r := l.do(http.MethodGet, "/pull/"+agent+"/next", token, nil)
	if r.status != http.StatusOK || r.delivery == "" {
		l.t.Fatalf("poll of %s: %d %q (delivery %q), want 200 with a call", agent, r.status, r.body, r.delivery)
	}
	return r
}

func (l *league) answer(agent, token, delivery, body string) reply {
	l.t.Helper()
	return l.do(http.MethodPost, "/pull/"+agent+"/reply/"+delivery, token, []byte(body))
}

func await(t *testing.T, c <-chan reply) reply {
	t.Helper()
	select {
	case r := <-c:
		return r
	case <-time.After(30 * time.Second):
		t.Fatal("the held call never ended")
		return reply{}
	}
}

// TestCallAnsweredThroughThePoll: a call posted to a seat's relay
// endpoint is handed, body unchanged, to its player's poll, and the
// player's answer is the call's response; an empty answer (to a
// notification) is 202 with no body.
func TestCallAnsweredThroughThePoll(t *testing.T) {
	l := newLeague(t, relay.Options{})
	call := `{"jsonrpc":"2.0","method":"choose_parity","params":{"match_id":"R1M1"},"id":4}`
	held := l.call("P01", call, 30*time.Second)
	got := l.poll("P01", "tok-one")
	if got.body != call {
		t.Errorf("the poll handed %q, want the call %q", got.body, call)
	}
	answer := `{"jsonrpc":"2.0","id":4,"result":{"parity_choice":"odd"}}`
	if r := l.answer("P01", "tok-one", got.delivery, answer); r.status != http.StatusNoContent {
		t.Errorf("the answer: %d %s, want 204", r.status, r.body)
	}
	if r := await(t, held); r.status != http.StatusOK || r.body != answer {
		t.Errorf("the caller got %d %q, want 200 and the answer", r.status, r.body)
	}

	note := l.call("P01", `{"jsonrpc":"2.0","method":"notify_round","params":{}}`, 30*time.Second)
	got = l.poll("P01", "tok-one")
	l.answer("P01", "tok-one", got.delivery, "")
	if r := await(t, note); r.status != http.StatusAccepted || r.body != "" {
		t.Errorf("the notification's caller got %d %q, want 202 and no body", r.status, r.body)
	}
}

// TestTokenRefused: a poll or an answer without the seat's token (none,
// a wrong one, another seat's) is refused alike, and so is a seat that
// is not open.
func TestTokenRefused(t *testing.T) {
	l := newLeague(t, relay.Options{})
	for _, c := range []struct{ path, token string }{
		{"/pull/P01/next", ""}, {"/pull/P01/next", "tok-wrong"}, {"/pull/P01/next", "tok-two"},
		{"/pull/P09/next", "tok-one"}, {"/pull/P01/reply/d-1", "tok-two"},
	} {
		method := http.MethodGet
		if strings.Contains(c.path, "/reply/") {
			method = http.MethodPost
		}
		if r := l.do(method, c.path, c.token, nil); r.status != http.StatusUnauthorized {
			t.Errorf("%s %s with token %q: %d, want 401", method, c.path, c.token, r.status)
		}
	}
	if r := l.do(http.MethodPost, "/pull/P09/mcp", "", []byte(`{}`)); r.status != http.StatusNotFound {
		t.Errorf("a call to a seat that is not open: %d, want 404", r.status)
	}
}

// TestQueueBound: a seat holds at most Queue calls, those handed out and
// not answered included; one more is refused at once, and a place freed
// by an answer is taken again.
func TestQueueBound(t *testing.T) {
	l := newLeague(t, relay.Options{Queue: 2})
	first, second := l.call("P01", `{"id":1}`, 30*time.Second), l.call("P01", `{"id":2}`, 30*time.Second)
	a, b := l.poll("P01", "tok-one"), l.poll("P01", "tok-one") // both are held now
	if r := l.do(http.MethodPost, "/pull/P01/mcp", "", []byte(`{"id":3}`)); r.status != http.StatusServiceUnavailable {
		t.Errorf("a third call to a seat of two: %d %s, want 503", r.status, r.body)
	}
	other := l.call("P02", `{"id":1}`, 30*time.Second) // another seat's queue is its own
	l.answer("P02", "tok-two", l.poll("P02", "tok-two").delivery, `{"ok":2}`)
	if r := await(t, other); r.status != http.StatusOK {
		t.Errorf("P02's call while P01's queue is full: %d, want 200", r.status)
	}
	l.answer("P01", "tok-one", a.delivery, `{"ok":1}`)
	await(t, map[string]<-chan reply{`{"id":1}`: first, `{"id":2}`: second}[a.body])
	third := l.call("P01", `{"id":3}`, 30*time.Second)
	c := l.poll("P01", "tok-one")
	l.answer("P01", "tok-one", c.delivery, `{"ok":3}`)
	if r := await(t, third); r.status != http.StatusOK || r.body != `{"ok":3}` {
		t.Errorf("a call once a place is free: %d %q, want 200", r.status, r.body)
	}
	l.answer("P01", "tok-one", b.delivery, `{"ok":1}`)
}

// TestDeliveryAnsweredOnce: an unknown delivery id is refused, an answer
// is taken once, and another seat's player cannot answer a call of this
// seat even with the right delivery id.
func TestDeliveryAnsweredOnce(t *testing.T) {
	l := newLeague(t, relay.Options{})
	if r := l.answer("P01", "tok-one", "d-0123", `{}`); r.status != http.StatusNotFound {
		t.Errorf("an unknown delivery: %d, want 404", r.status)
	}
	held := l.call("P01", `{"id":1}`, 30*time.Second)
	got := l.poll("P01", "tok-one")
	if r := l.answer("P02", "tok-two", got.delivery, `{"forged":true}`); r.status != http.StatusNotFound {
		t.Errorf("P02 answering P01's delivery on its own seat: %d, want 404", r.status)
	}
	l.answer("P01", "tok-one", got.delivery, `{"ok":true}`)
	if r := l.answer("P01", "tok-one", got.delivery, `{"again":true}`); r.status != http.StatusNotFound {
		t.Errorf("a second answer to one delivery: %d, want 404", r.status)
	}
	if r := await(t, held); r.body != `{"ok":true}` {
		t.Errorf("the caller got %q, want the first answer", r.body)
	}
}

// TestBodiesCapped: a call or an answer larger than MaxBody is refused
// with 413.
func TestBodiesCapped(t *testing.T) {
	l := newLeague(t, relay.Options{MaxBody: 64})
	big := bytes.Repeat([]byte("x"), 1000)
	if r := l.do(http.MethodPost, "/pull/P01/mcp", "", big); r.status != http.StatusRequestEntityTooLarge {
		t.Errorf("a call of 1000 bytes: %d, want 413", r.status)
	}
	held := l.call("P01", `{"id":1}`, 30*time.Second)
	got := l.poll("P01", "tok-one")
	if r := l.answer("P01", "tok-one", got.delivery, string(big)); r.status != http.StatusRequestEntityTooLarge {
		t.Errorf("an answer of 1000 bytes: %d, want 413", r.status)
	}
	l.answer("P01", "tok-one", got.delivery, `{"ok":1}`)
	await(t, held)
}

// TestWaitsAreBounded: a poll with nothing to hand ends with 204 after
// PollWait; a call no one polls for ends when its caller gives up, or
// with 504 after MaxHold; an answer to a call whose caller went is
// refused.
func TestWaitsAreBounded(t *testing.T) {
	l := newLeague(t, relay.Options{PollWait: 50 * time.Millisecond, MaxHold: 300 * time.Millisecond})
	if r := l.do(http.MethodGet, "/pull/P01/next", "tok-one", nil); r.status != http.StatusNoContent {
		t.Errorf("an idle poll: %d, want 204", r.status)
	}
	if r := await(t, l.call("P01", `{"id":1}`, 30*time.Second)); r.status != http.StatusGatewayTimeout {
		t.Errorf("a call never polled for: %d, want 504 after MaxHold", r.status)
	}
	if r := await(t, l.call("P02", `{"id":1}`, 100*time.Millisecond)); r.status != -1 {
		t.Errorf("a caller that gives up: %d, want its own timeout", r.status)
	}
	held := l.call("P01", `{"id":2}`, 30*time.Second)
	got := l.poll("P01", "tok-one")
	await(t, held) // 504: the player took too long
	if r := l.answer("P01", "tok-one", got.delivery, `{}`); r.status != http.StatusNotFound && r.status != http.StatusGone {
		t.Errorf("an answer after the caller went: %d, want 404 or 410", r.status)
	}
	if r := l.do(http.MethodGet, "/pull/P02/next", "tok-two", nil); r.status != http.StatusNoContent {
		t.Errorf("a poll after the caller gave up: %d %q, want 204 (nothing handed)", r.status, r.body)
	}
}

// TestMarkerAndEndpoints: the marker a registration sends, and the
// relay's endpoint form that no one else may register.
func TestMarkerAndEndpoints(t *testing.T) {
	if !relay.IsMarker("pull") || !relay.IsMarker(" PULL ") || relay.IsMarker("http://x/mcp") {
		t.Error("IsMarker")
	}
	e := relay.Endpoint("http://10.0.0.1:8000/", "P05")
	if e != "http://10.0.0.1:8000/pull/P05/mcp" || !relay.UnderRelay(e) || relay.UnderRelay("http://10.0.0.1:8000/mcp") {
		t.Errorf("Endpoint %q", e)
	}
}

// TestHoldOutlivesTheServersReadTimeout: behind an agent's HTTP server,
// whose read deadline is meant for a request's arrival (the league's
// generic timeout), a call held longer than it still gets its answer, and
// a poll still waits its PollWait.
func TestHoldOutlivesTheServersReadTimeout(t *testing.T) {
	r := relay.New(relay.Options{PollWait: 600 * time.Millisecond})
	m := mux{http.NewServeMux()}
	r.Mount(m)
	srv := httptest.NewUnstartedServer(m)
	srv.Config = rpc.NewHTTPServer(m, 200*time.Millisecond, nil)
	srv.Start()
	t.Cleanup(srv.Close)
	r.Open("P01", "tok-one")
	l := &league{t: t, relay: r, url: srv.URL}

	start := time.Now()
	if got := l.do(http.MethodGet, "/pull/P01/next", "tok-one", nil); got.status != http.StatusNoContent || time.Since(start) < 500*time.Millisecond {
		t.Errorf("an idle poll: %d after %s, want 204 after its PollWait", got.status, time.Since(start))
	}
	held := l.call("P01", `{"id":1}`, 30*time.Second)
	got := l.poll("P01", "tok-one")
	<-time.After(500 * time.Millisecond) // the player thinks past the server's read timeout
	l.answer("P01", "tok-one", got.delivery, `{"late":"but in time"}`)
	if r := await(t, held); r.status != http.StatusOK || r.body != `{"late":"but in time"}` {
		t.Errorf("a call held past the read timeout: %d %q, want 200 and the answer", r.status, r.body)
	}
}

// TestHeldBytesBound: the calls all seats hold together are bounded in
// bytes: one more is refused at once, whichever seat it is for.
func TestHeldBytesBound(t *testing.T) {
	l := newLeague(t, relay.Options{MaxBody: 64, MaxHeld: 100})
	call := `{"jsonrpc":"2.0","method":"choose_parity","id":1,"params":{}}` // 60 bytes
	held := l.call("P01", call, 30*time.Second)
	got := l.poll("P01", "tok-one") // held now
	if r := l.do(http.MethodPost, "/pull/P02/mcp", "", []byte(call)); r.status != http.StatusServiceUnavailable {
		t.Errorf("a call past the relay's byte bound: %d %s, want 503", r.status, r.body)
	}
	l.answer("P01", "tok-one", got.delivery, `{}`)
	await(t, held)
	again := l.call("P02", call, 30*time.Second)
	l.answer("P02", "tok-two", l.poll("P02", "tok-two").delivery, `{"ok":1}`)
	if r := await(t, again); r.status != http.StatusOK {
		t.Errorf("a call once the bytes are freed: %d, want 200", r.status)
	}
}

// answerAndPoll posts body as the answer to delivery (none when "") with
// the poll for the seat's next call, in one request (POST …/next).
func (l *league) answerAndPoll(agent, token, delivery, body string) reply {
	l.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.url+"/pull/"+agent+"/next", strings.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if delivery != "" {
		req.Header.Set(relay.DeliveryHeader, delivery)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, body: string(raw), delivery: resp.Header.Get(relay.DeliveryHeader)}
}

// TestAnswerCarriesTheNextPoll: POST …/next with no delivery is a poll;
// with League-Delivery its body answers that call (the caller gets it,
// 202 for a notification's empty answer) and the same request then
// waits for the next call. An answer it cannot deliver is refused as POST
// …/reply refuses it, and polls nothing.
func TestAnswerCarriesTheNextPoll(t *testing.T) {
	l := newLeague(t, relay.Options{PollWait: 200 * time.Millisecond})
	first := l.call("P01", `{"id":1}`, 30*time.Second)
	awaitRelay(t, "the first call held", func() bool { return l.relay.Held("P01") == 1 })
	got := l.answerAndPoll("P01", "tok-one", "", "")
	if got.status != http.StatusOK || got.body != `{"id":1}` || got.delivery == "" {
		t.Fatalf("a bare POST next: %d %q (delivery %q), want the call", got.status, got.body, got.delivery)
	}
	second := l.call("P01", `{"method":"notify"}`, 30*time.Second)
	awaitRelay(t, "the second call held", func() bool { return l.relay.Held("P01") == 2 })
	next := l.answerAndPoll("P01", "tok-one", got.delivery, `{"ok":1}`)
	if r := await(t, first); r.status != http.StatusOK || r.body != `{"ok":1}` {
		t.Errorf("the first call's caller got %d %q, want 200 and the answer carried by the poll", r.status, r.body)
	}
	if next.status != http.StatusOK || next.body != `{"method":"notify"}` {
		t.Fatalf("the answer's poll: %d %q, want the second call", next.status, next.body)
	}
	last := l.answerAndPoll("P01", "tok-one", next.delivery, "")
	if r := await(t, second); r.status != http.StatusAccepted || r.body != "" {
		t.Errorf("the notification's caller got %d %q, want 202 and no body", r.status, r.body)
	}
	if last.status != http.StatusNoContent {
		t.Errorf("the last answer's poll, nothing queued: %d %q, want 204 after the poll wait", last.status, last.body)
	}
	for _, c := range []struct {
		token, delivery string
		want            int
	}{{"tok-one", next.delivery, http.StatusNotFound}, {"tok-one", "d-0123", http.StatusNotFound}, {"tok-two", got.delivery, http.StatusUnauthorized}} {
		if r := l.answerAndPoll("P01", c.token, c.delivery, `{}`); r.status != c.want {
			t.Errorf("POST next for delivery %q with token %q: %d %q, want %d", c.delivery, c.token, r.status, r.body, c.want)
		}
	}
}

// TestDrainEndsEveryWait: once the manager stops (Drain), a call held
// for a player that no longer polls ends within DrainGrace (504), not
// after MaxHold; a new call to a seat no poll waits on is refused at
// once; a poll waits at most DrainGrace; and a player that still polls
// still gets its calls.
func TestDrainEndsEveryWait(t *testing.T) {
	l := newLeague(t, relay.Options{PollWait: 20 * time.Second, MaxHold: time.Minute})
	forgotten := l.call("P02", `{"id":1}`, time.Minute)
	polled := make(chan reply, 1)
	go func() { polled <- l.do(http.MethodGet, "/pull/P01/next", "tok-one", nil) }()
	awaitRelay(t, "P01's poll waiting", func() bool { return l.relay.PollWaiting("P01") })
	awaitRelay(t, "P02's call held", func() bool { return l.relay.Held("P02") == 1 })
	began := time.Now()
	l.relay.Drain()
	last := l.call("P01", `{"method":"league_completed"}`, time.Minute)
	got := await(t, polled)
	if got.status != http.StatusOK || got.body != `{"method":"league_completed"}` {
		t.Fatalf("the poll that waited during Drain: %d %q, want the last call", got.status, got.body)
	}
	l.answer("P01", "tok-one", got.delivery, "")
	if r := await(t, last); r.status != http.StatusAccepted {
		t.Errorf("the last call, answered during Drain: %d %q, want 202", r.status, r.body)
	}
	if r := await(t, forgotten); r.status != http.StatusGatewayTimeout || time.Since(began) > relay.DrainGrace+5*time.Second {
		t.Errorf("a call no one polls for, after Drain: %d after %s, want 504 within DrainGrace", r.status, time.Since(began))
	}
	if r := l.do(http.MethodPost, "/pull/P02/mcp", "", []byte(`{"id":2}`)); r.status != http.StatusServiceUnavailable {
		t.Errorf("a new call to a seat no poll waits on, after Drain: %d %q, want 503 at once", r.status, r.body)
	}
	began = time.Now()
	if r := l.do(http.MethodGet, "/pull/P02/next", "tok-two", nil); r.status != http.StatusNoContent || time.Since(began) > relay.DrainGrace+5*time.Second {
		t.Errorf("a poll after Drain: %d after %s, want 204 within DrainGrace", r.status, time.Since(began))
	}
}

// awaitRelay waits, a bounded while, until the relay's state is what done
// says: a request the test sent in the background has arrived.
func awaitRelay(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !done(); {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond) // a bounded poll of the relay's state, not a synchronisation by time
	}
}
