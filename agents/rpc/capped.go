package rpc

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ReplyTooLarge names a reply refused for passing its byte cap, in every
// error that says so: a league peer's, a page server's or a model
// provider's (docs/limits.md).
const ReplyTooLarge = "REPLY_TOO_LARGE"

// ReplyTooLargeError is a reply refused for passing its byte cap: what came
// from outside is never read past the cap, however much the peer sends.
type ReplyTooLargeError struct {
	From  string // the URL the reply came from
	Limit int64  // the cap, in bytes
}

func (e *ReplyTooLargeError) Error() string {
	return fmt.Sprintf("%s: the reply from %s is over its %d-byte cap", ReplyTooLarge, e.From, e.Limit)
}

// IsReplyTooLarge reports whether err is a refused reply, also when a
// library passed it on as text only (the MCP SDK does).
func IsReplyTooLarge(err error) bool {
	if err == nil {
		return false // without errors.As's error variable on the heap
	}
	var tooLarge *ReplyTooLargeError
	return errors.As(err, &tooLarge) || strings.Contains(err.Error(), ReplyTooLarge)
}

// CapReplies makes every reply base brings back readable up to limit bytes
// only: a reply that states a longer length is refused before its body is
// read, and one that runs past the cap fails the read with a
// *ReplyTooLargeError. Clients we do not write the reading of (the MCP SDK,
// the model providers' SDKs) get their replies through it.
func CapReplies(base http.RoundTripper, limit int64) http.RoundTripper {
	return cappedTransport{base: base, limit: limit}
}

type cappedTransport struct {
	base  http.RoundTripper
	limit int64
}

func (t cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	tooLarge := &ReplyTooLargeError{From: req.URL.Redacted(), Limit: t.limit}
	if resp.ContentLength > t.limit {
		resp.Body.Close()
		return nil, tooLarge
	}
	resp.Body = &cappedBody{body: resp.Body, left: t.limit, err: tooLarge}
	return resp, nil
}

// cappedBody reads at most left more bytes of body, then fails with err.
type cappedBody struct {
	body io.ReadCloser
	left int64
	err  error
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body that ends exactly at the cap from
		// one that goes on.
		var probe [1]byte
		if n, _ := b.body.Read(probe[:]); n > 0 {
			return 0, b.err
		}
		return b.body.Read(p)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.body.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.body.Close() }
