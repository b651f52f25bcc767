package ratelimit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// Through real HTTP: the transport tells the limiter what the server
// answered (here a 429 asking for 30 s), and a request whose slot is then
// past its deadline is answered 429 by the transport itself, marked as
// its own, without reaching the server.
func TestTransportLearnsAndRefusesLateSlots(t *testing.T) {
	var got atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: &Transport{Limiter: New(Limits{}, nil), Next: http.DefaultTransport}}
	send := func() *http.Response {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if first := send(); first.StatusCode != http.StatusTooManyRequests || first.Header.Get(LimiterRefused) != "" {
		t.Fatalf("first request: %d %v, want the server's 429", first.StatusCode, first.Header)
	}
	second := send()
	if second.StatusCode != http.StatusTooManyRequests || second.Header.Get(LimiterRefused) == "" || second.Header.Get("Retry-After") == "" {
		t.Fatalf("second request: %d %v, want the limiter's own 429 with a Retry-After", second.StatusCode, second.Header)
	}
	if n := got.Load(); n != 1 {
		t.Fatalf("the server got %d requests, want 1", n)
	}
}
