package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// exchange is one HTTP request the checker made and what came back, kept
// whole so that a failure can show both.
type exchange struct {
	URL     string
	Sent    []byte
	Status  int
	Body    []byte
	Header  http.Header
	Err     error // no answer: refused, reset, timed out
	Elapsed time.Duration
	inbound bool // Body is a request the agent sent the checker
}

// received is a request the agent sent one of the checker's servers, for
// a failure about it.
func received(body []byte) exchange { return exchange{Body: body, inbound: true} }

// maxShown bounds what a failure shows of a body.
const maxShown = 600

// sent is what the checker sent, for a failure's "sent" line.
func (x exchange) sent() string { return clip(x.Sent) }

// got is what came back, for a failure's "got" line.
func (x exchange) got() string {
	if x.Err != nil {
		return fmt.Sprintf("no answer after %s: %v", x.Elapsed.Round(time.Millisecond), x.Err)
	}
	return fmt.Sprintf("HTTP %d after %s: %s", x.Status, x.Elapsed.Round(time.Millisecond), clip(x.Body))
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > maxShown {
		return s[:maxShown] + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return s
}

// reply is the league message the exchange answered with, read as
// leaguetui reads replies (a JSON-RPC result, a bare message, an MCP tool
// result); a JSON-RPC error or a LEAGUE_ERROR is the error.
func (x exchange) reply() (json.RawMessage, error) {
	if x.Err != nil {
		return nil, x.Err
	}
	return protocol.ParseReply(x.Body)
}

// rpcError is the JSON-RPC error the exchange answered with, if any.
func (x exchange) rpcError() *protocol.RPCError {
	var resp struct {
		Error *protocol.RPCError `json:"error"`
	}
	if x.Err != nil || json.Unmarshal(x.Body, &resp) != nil {
		return nil
	}
	return resp.Error
}

// post sends body to url and reads the answer, within timeout.
func post(ctx context.Context, url string, body []byte, timeout time.Duration, header http.Header) exchange {
	x := exchange{URL: url, Sent: body}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		x.Err = err
		return x
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	req.Close = req.Header.Get("Connection") == "close"
	return x.do(req)
}

// postAlone is post on a connection of its own, closed after the answer:
// for what the agent may rightly refuse by closing the connection (a body
// far too large, read or not), so that the next request goes out on a new
// connection, as a league's next call does, rather than on one the agent
// closed.
func postAlone(ctx context.Context, url string, body []byte, timeout time.Duration) exchange {
	return post(ctx, url, body, timeout, http.Header{"Connection": {"close"}})
}

// get fetches url within timeout.
func get(ctx context.Context, url string, timeout time.Duration) exchange {
	x := exchange{URL: url, Sent: []byte("GET " + url)}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		x.Err = err
		return x
	}
	return x.do(req)
}

// do sends req and keeps what came back: the status, the headers, at most
// 1 MiB of the body (the agent under test may be hostile), the error and the
// time it took.
func (x exchange) do(req *http.Request) exchange {
	start := time.Now()
	resp, err := noRedirects.Do(req)
	if err == nil {
		x.Status, x.Header = resp.StatusCode, resp.Header
		x.Body, err = io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
	}
	x.Err, x.Elapsed = err, time.Since(start)
	return x
}

// connectionClosed says whether err is the agent closing the connection
// under a request (an answer cut off, a reset), rather than a refusal to
// connect or a deadline.
func connectionClosed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || strings.Contains(err.Error(), "server closed idle connection")
}

// noRedirects is the checker's HTTP client: a redirect is the agent's
// answer, shown as it came, never followed (an agent could otherwise send
// the checker anywhere).
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// request frames a JSON-RPC request; id nil makes a notification.
func request(method string, params any, id any) []byte {
	frame := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if id != nil {
		frame["id"] = id
	}
	out, err := json.Marshal(frame)
	if err != nil {
		panic(err) // the checker's own messages always encode
	}
	return out
}

// fields reads a JSON object's top-level fields, for checks that look at
// what a peer spelled rather than what leaguetui's liberal reading makes
// of it.
func fields(raw []byte) map[string]json.RawMessage {
	var out map[string]json.RawMessage
	_ = json.Unmarshal(raw, &out)
	return out
}

// str reads a string field; "" when absent or not a string.
func str(f map[string]json.RawMessage, key string) string {
	var s string
	_ = json.Unmarshal(f[key], &s)
	return s
}
