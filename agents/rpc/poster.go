package rpc

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/leaguetui/leaguetui/agents/tlsconf"
)

// Poster makes the HTTP exchange under every call an agent's Client makes:
// one POST of a JSON body, the whole reply read. The bench's floor measure
// posts through one too, so that HTTP alone costs it what it costs an
// agent.
//
// It is plain net/http, through a Transport directly: http.Client adds
// redirects (which a peer has no business sending us to), cookies and
// timeouts (an attempt's deadline is its context's), and copies every
// request's headers for them, on the hot path of every match.
type Poster struct {
	transport *http.Transport
	header    http.Header // every request's headers, shared: read only
	maxReply  int64       // a reply's bound: MaxBodyBytes unless SetMaxReply
}

// NewPoster keeps connections alive, at most maxConnsPerHost to each peer
// (0: no limit), never through a proxy.
func NewPoster(maxConnsPerHost int) *Poster {
	return &Poster{
		transport: &http.Transport{
			Proxy:               nil, // agents talk to each other directly, never through a proxy
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        1024,
			MaxIdleConnsPerHost: maxConnsPerHost,
			MaxConnsPerHost:     maxConnsPerHost,
			IdleConnTimeout:     90 * time.Second,
			TLSClientConfig:     tlsconf.Client(),
			TLSHandshakeTimeout: 5 * time.Second,
			// No Accept-Encoding: gzip on every request and no gunzipping
			// reader on every reply: league messages are a few hundred
			// bytes over loopback or a LAN.
			DisableCompression: true,
		},
		header:   requestHeader(),
		maxReply: MaxBodyBytes,
	}
}

// SetWriteBuffer sizes the buffer each new connection writes a request
// through (net/http's default is 4 KB). A request larger than the buffer
// leaves in two or three writes instead of one, and over loopback each
// write is a pass through TCP and usually a wake-up of the reader: for a
// 10 KB body, a quarter of the exchange's CPU. Call it before the first
// Post; every connection holds a buffer of this size while it lives.
func (p *Poster) SetWriteBuffer(n int) {
	if n > 0 {
		p.transport.WriteBufferSize = n
	}
}

// SetMaxReply changes the bound of a reply (MaxBodyBytes by default).
// Call it before the first Post.
func (p *Poster) SetMaxReply(n int64) {
	if n > 0 {
		p.maxReply = n
	}
}

// requestHeader is what every request carries besides its length: JSON,
// and an Accept that MCP peers insist on. No User-Agent: nobody reads it,
// and every header is one more line for the peer to parse.
func requestHeader() http.Header {
	return http.Header{
		"Content-Type": {"application/json"},
		"Accept":       {"application/json, text/event-stream"},
		"User-Agent":   {""}, // net/http sends none when it is empty
	}
}

// Post POSTs body as JSON and reads the whole reply, up to its bound
// (a *ReplyTooLargeError beyond). A redirect is not followed: it comes back as
// its status.
func (p *Poster) Post(ctx context.Context, endpoint string, body []byte) (status int, reply []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header = p.header // RoundTrip never changes a request
	resp, err := p.transport.RoundTrip(req)
	if err != nil {
		return 0, nil, err // CallError names the endpoint
	}
	defer resp.Body.Close()
	reply, err = readReply(resp, endpoint, p.maxReply)
	if err != nil {
		return 0, nil, err
	}
	return resp.StatusCode, reply, nil
}

// readReply reads a reply's body, up to limit bytes. A reply of a
// stated length (every agent's) is read into one buffer of that size,
// the caller's to keep (a referee's transcript keeps its replies): no
// io.ReadAll growing a buffer from 512 bytes, no LimitReader. net/http's
// body gives no more than the stated length, and hands back io.EOF with
// its last bytes, so the connection goes back to the pool as before.
// Above presizedBodyBytes a stated length is a claim not trusted with a
// buffer: the reply is read as it arrives.
func readReply(resp *http.Response, endpoint string, limit int64) ([]byte, error) {
	if n := resp.ContentLength; n > limit {
		return nil, &ReplyTooLargeError{From: endpoint, Limit: limit}
	} else if n > 0 && n <= presizedBodyBytes {
		reply := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, reply); err != nil {
			return nil, err
		}
		return reply, nil
	}
	reply, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(reply)) > limit {
		return nil, &ReplyTooLargeError{From: endpoint, Limit: limit}
	}
	return reply, nil
}

// CloseIdleConnections closes the connections no exchange is using.
func (p *Poster) CloseIdleConnections() { p.transport.CloseIdleConnections() }
