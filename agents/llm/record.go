package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// A record is a folder of a model player's exchanges with its provider,
// one JSON file per distinct request, so a person can read it and diff
// two: the request (method, path, body: the prompt, the tools, the model)
// and the replies it got, in order. The file is named by the request's
// key, a hash of its method, path and canonical body and of the player's
// harness when it is not the built-in one (requestKey), which is all a
// replay matches on. Headers are never written but Content-Type and
// Retry-After, so no key is; any text equal to the key, in any spelling
// (keyForms), is blanked in case a server echoes it.

// recordedExchange is one record file.
type recordedExchange struct {
	Key     string          `json:"key"`
	Request recordedRequest `json:"request"`
	// Harness is the harness the request was asked with, part of its key;
	// absent for the built-in one, whose keys are as they always were.
	Harness *protocol.Harness `json:"harness,omitempty"`
	Replies []recordedReply   `json:"replies"`
}

type recordedRequest struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body"`
}

// recordedReply is one reply: a status with its body, or the timeout the
// provider ended in.
type recordedReply struct {
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    json.RawMessage   `json:"body,omitempty"`
	Text    string            `json:"text,omitempty"` // a body that is not JSON
	Timeout bool              `json:"timeout,omitempty"`
}

// keptHeaders are the reply headers a record keeps: what the SDKs read.
var keptHeaders = []string{"Content-Type", "Retry-After"}

// RecordMissingError is a request a replay found no reply for: a move
// that fails, named, instead of reaching any network.
type RecordMissingError struct {
	Key  string // the request's key, the file name it was looked for under
	Path string // that file
}

func (e *RecordMissingError) Error() string {
	return fmt.Sprintf("no recorded reply for this request (key %s, looked for %s)", e.Key, e.Path)
}

// recordFolder is one player's part of a record: DIR/<player name>, so
// players that ask the same thing never write the same file.
func recordFolder(dir, player string) (string, error) {
	if player == "" {
		player = "player"
	}
	if !filepath.IsLocal(player) || strings.ContainsAny(player, `/\`) {
		return "", fmt.Errorf("the player name %q cannot name a record folder", player)
	}
	return filepath.Join(dir, player), nil
}

// requestKey is a request's key: method, path and body with its JSON
// canonical (keys sorted, no spaces), whoever wrote it, and the harness it
// was asked with unless that is the built-in one: two harnesses of one
// model never answer each other's requests, even those whose bodies are
// alike (a harness that differs only in its rethinks).
func requestKey(method, path string, body []byte, h *protocol.Harness) (string, json.RawMessage) {
	canonical := canonicalJSON(body)
	text := method + " " + path + "\n" + string(canonical)
	if h != nil {
		raw, _ := json.Marshal(h)
		text += "\nharness " + string(raw)
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:12]), canonical
}

func canonicalJSON(body []byte) json.RawMessage {
	var v any
	if json.Unmarshal(body, &v) != nil {
		quoted, _ := json.Marshal(string(body))
		return quoted
	}
	out, _ := json.Marshal(v)
	return out
}

// cassette is a record folder read or written through the provider's
// HTTP client: recording, every exchange goes to the network and to the
// folder; replaying, none goes to the network.
type cassette struct {
	dir    string
	replay bool
	blank  *blanker // the key's spellings, blanked from what is written
	limit  int64    // a reply's byte cap (--llm-reply-bytes), replayed as it is live
	next   http.RoundTripper

	mu   sync.Mutex
	seen map[string]int // key -> requests of it answered so far (replay)
}

func (c *cassette) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	h := harnessOf(req.Context())
	key, canonical := requestKey(req.Method, req.URL.Path, body, h)
	if c.replay {
		return c.answer(req, key)
	}
	return c.record(req, recordedRequest{Method: req.Method, Path: req.URL.Path, Body: canonical}, key, h)
}

func (c *cassette) path(key string) string { return filepath.Join(c.dir, key+".json") }

// answer replays the n-th reply recorded for the request's n-th asking
// (the last again when it is asked more often).
func (c *cassette) answer(req *http.Request, key string) (*http.Response, error) {
	c.mu.Lock()
	n := c.seen[key]
	c.seen[key]++
	c.mu.Unlock()
	reply, found, err := readReply(c.path(key), n, c.limit)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !found) {
		return nil, &RecordMissingError{Key: key, Path: c.path(key)}
	}
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", c.path(key), err)
	}
	if reply.Timeout {
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: replayedTimeout{}}
	}
	resp := &http.Response{StatusCode: reply.Status, Status: http.StatusText(reply.Status), Header: http.Header{},
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Request: req}
	for name, value := range reply.Headers {
		resp.Header.Set(name, value)
	}
	text := []byte(reply.Text)
	if reply.Body != nil {
		var compact bytes.Buffer
		if json.Compact(&compact, reply.Body) == nil {
			text = compact.Bytes()
		} else {
			text = reply.Body
		}
	}
	if int64(len(text)) > c.limit {
		// What a live reply of this size is: refused, not read.
		return nil, fmt.Errorf("record %s: reply %d of %d bytes: %w", c.path(key), n+1, len(text),
			&rpc.ReplyTooLargeError{From: "the record", Limit: c.limit})
	}
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(text)), int64(len(text))
	return resp, nil
}

// recordValueBytes is the most of a record file a replay holds at once:
// one value of it (its key, its request, one reply) as the recorder
// writes it. A reply of up to limit bytes is written re-encoded and
// indented, which makes it longer (encoding/json writes a byte as up to
// six, \u003c for <; each line is indented): sixteen times limit, and
// 1 MiB for the request, the prompt the player wrote itself, are room
// enough. A value past it is no recorded reply of this cap.
func recordValueBytes(limit int64) int64 { return 16*limit + 1<<20 }

// readReply reads the n-th reply of the record file at path (the last
// one when it holds fewer; found false when it holds none) one value at a
// time, none read past recordValueBytes(limit): a record file of any size
// costs the replay no more memory than a reply read live does.
func readReply(path string, n int, limit int64) (reply recordedReply, found bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return reply, false, err
	}
	defer f.Close()
	w := &valueWindow{r: f, most: recordValueBytes(limit), limit: limit}
	dec := json.NewDecoder(w)
	w.dec = dec
	if err := expectDelim(dec, '{'); err != nil {
		return reply, false, err
	}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return reply, false, err
		}
		if name != "replies" {
			var skipped json.RawMessage
			if err := dec.Decode(&skipped); err != nil {
				return reply, false, err
			}
			continue
		}
		if err := expectDelim(dec, '['); err != nil {
			return reply, false, err
		}
		for i := 0; dec.More(); i++ {
			var r recordedReply
			if err := dec.Decode(&r); err != nil {
				return reply, false, err
			}
			reply, found = r, true
			if i == n {
				return reply, found, nil // the rest of the file is not read
			}
		}
		return reply, found, nil
	}
	return reply, found, nil
}

// expectDelim reads the delimiter want.
func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("want %v, found %v", want, tok)
	}
	return nil
}

// valueWindow feeds a json.Decoder at most most bytes past what it has
// consumed: a value longer than that fails to decode (a
// rpc.ReplyTooLargeError) with no more of it read.
type valueWindow struct {
	r           io.Reader
	dec         *json.Decoder
	most, limit int64 // limit: the reply cap most is made of
	read        int64
}

func (w *valueWindow) Read(p []byte) (int, error) {
	room := w.most - (w.read - w.dec.InputOffset())
	if room <= 0 {
		return 0, fmt.Errorf("a value over %d bytes, longer than any reply of up to %d bytes is recorded as: %w",
			w.most, w.limit, &rpc.ReplyTooLargeError{From: "the record", Limit: w.limit})
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := w.r.Read(p)
	w.read += int64(n)
	return n, err
}

// replayedTimeout is a recorded timeout, replayed: a net.Error that timed out.
type replayedTimeout struct{}

func (replayedTimeout) Error() string   { return "recorded timeout" }
func (replayedTimeout) Timeout() bool   { return true }
func (replayedTimeout) Temporary() bool { return true }

// record sends the request and keeps its reply (or its timeout) in the
// request's file, after the replies it got before.
func (c *cassette) record(req *http.Request, asked recordedRequest, key string, h *protocol.Harness) (*http.Response, error) {
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		var netErr net.Error
		if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
			c.keep(asked, key, h, recordedReply{Timeout: true})
		}
		return nil, err
	}
	body, readErr := io.ReadAll(resp.Body)
	resp.Body.Close()
	if readErr != nil {
		return nil, readErr // a reply over the cap, or cut short: nothing to keep
	}
	reply := recordedReply{Status: resp.StatusCode, Headers: map[string]string{}}
	for _, name := range keptHeaders {
		if v := resp.Header.Get(name); v != "" {
			reply.Headers[name] = v
		}
	}
	if json.Valid(body) {
		reply.Body = canonicalJSON(body)
	} else {
		reply.Text = string(body)
	}
	c.keep(asked, key, h, reply)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// keep appends reply to the request's file. A record that cannot be
// written does not fail the move: the league goes on, the record is short.
func (c *cassette) keep(asked recordedRequest, key string, h *protocol.Harness, reply recordedReply) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ex := recordedExchange{Key: key, Request: asked, Harness: h}
	if raw, err := os.ReadFile(c.path(key)); err == nil {
		_ = json.Unmarshal(raw, &ex)
	}
	ex.Replies = append(ex.Replies, reply)
	out, err := json.MarshalIndent(ex, "", "  ")
	if err != nil {
		return
	}
	_ = writeFileAtomic(c.path(key), append(c.blank.blankBytes(out), '\n'))
}

// writeFileAtomic writes path through a temporary file renamed over it,
// so a reader never sees half a record.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".record-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
