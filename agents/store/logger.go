package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// redacted replaces every secret in a log line.
const redacted = "[redacted]"

// timestampLayout is UTC RFC 3339 with milliseconds, as both specification
// loggers write it; times are converted to UTC before formatting.
const timestampLayout = "2006-01-02T15:04:05.000Z"

// reservedKeys are written first on every line. An attribute with one of
// these keys is written as "attr_<key>" so that no line has a duplicate key.
var reservedKeys = map[string]bool{
	"timestamp": true, "level": true, "component": true, "agent_id": true, "message": true,
}

// NewLogger returns a slog logger writing JSON lines to path (appending,
// creating folders) with the keys both specification loggers use, in this
// order: "timestamp" (UTC RFC 3339 with milliseconds, ending in Z), "level"
// (DEBUG, INFO, WARNING, ERROR), "component", "agent_id", "message",
// "event_type" (taken from a top-level attribute named event_type, and left
// out when there is none), then the other attributes flat; groups become
// nested objects.
//
// Tokens must never reach a log line: any attribute whose key is "token" or
// ends in "token" (auth_token, admin_token, …; case-insensitively, at any depth
// and inside structs and maps logged as values) is written as "[redacted]",
// and so is every secret registered with Redact wherever it appears.
//
// Lines are not fsynced: logs are for people, the journal is for recovery.
// The returned io.Closer closes the file. level is the minimum level.
func NewLogger(path, component, agentID string, level slog.Level) (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(filepath.Dir(path), dirPerm); err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, filePerm)
	if err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	s := &logSink{f: f}
	h := &logHandler{sink: s, component: component, agentID: agentID, level: level}
	s.refusals = newRefusalCounter(RefusalInterval, h.writeCount)
	return slog.New(h), s, nil
}

// secretReplacer replaces every registered secret with "[redacted]"; nil
// until the first Redact. strings.Replacer is safe for concurrent use, so
// loggers read it without locking.
var (
	secretsMu      sync.Mutex
	secrets        []string
	secretReplacer atomic.Pointer[redactor]
)

// redactor is the replacer of the secrets registered so far, and the
// length of the shortest: a shorter string holds none of them, and most
// of what a log line says (ids, event types, moves) is shorter than a
// token, so it skips the replacer's search.
type redactor struct {
	*strings.Replacer
	shortest int
}

// Redact registers a secret (an issued token) that must never appear in any
// log line written by NewLogger loggers of this process: any string attribute
// value, key or message containing it has it replaced by "[redacted]". The
// empty string is ignored. Safe for concurrent use.
func Redact(secret string) {
	if secret == "" {
		return
	}
	secretsMu.Lock()
	defer secretsMu.Unlock()
	if slices.Contains(secrets, secret) {
		return
	}
	secrets = append(secrets, secret)
	// The replacer tries its patterns in argument order, so longest first: a
	// secret that contains another is then redacted whole.
	sort.SliceStable(secrets, func(a, b int) bool { return len(secrets[a]) > len(secrets[b]) })
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, redacted)
	}
	secretReplacer.Store(&redactor{Replacer: strings.NewReplacer(pairs...), shortest: len(secrets[len(secrets)-1])})
}

func redactSecrets(s string) string {
	if r := secretReplacer.Load(); r != nil && len(s) >= r.shortest {
		return r.Replace(s)
	}
	return s
}

// SecretKey reports whether values under key are tokens: the key is
// "token" or ends in it (auth_token, authToken, admin_token, …), in any
// case; match tickets and their keys (player_A_ticket, match_ticket_key)
// are secrets too. Loggers and every file that records messages leave such values out.
func SecretKey(key string) bool {
	key = strings.ToLower(key)
	return strings.HasSuffix(key, "token") || strings.HasSuffix(key, "ticket") || strings.HasSuffix(key, "ticket_key")
}

// logSink is the file shared by a logger and everything derived from it.
type logSink struct {
	mu       sync.Mutex
	f        *os.File
	refusals *refusalCounter
}

// write writes one line with one write call, so lines from concurrent
// goroutines (and, with O_APPEND, processes) never interleave. A line the
// disk took only part of (full, or over a size limit) is cut away again:
// a log holds whole lines only.
func (s *logSink) write(line []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.f.Write(line)
	if err != nil && n > 0 {
		if end, serr := s.f.Seek(0, io.SeekCurrent); serr == nil {
			_ = s.f.Truncate(end - int64(n))
		}
	}
	return err
}

func (s *logSink) Close() error {
	s.refusals.flush() // the counts not yet written
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Close()
}

// logHandler is the slog.Handler behind NewLogger.
type logHandler struct {
	sink               *logSink
	component, agentID string
	level              slog.Level
	frames             []logFrame // With and WithGroup calls, in order
}

// logFrame is one WithAttrs (attrs) or WithGroup (group) call.
type logFrame struct {
	group string
	attrs []slog.Attr
}

func (h *logHandler) Enabled(_ context.Context, l slog.Level) bool {
	return l >= h.level
}

func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return h
	}
	return h.with(logFrame{attrs: slices.Clone(attrs)})
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return h.with(logFrame{group: name})
}

func (h *logHandler) with(f logFrame) *logHandler {
	h2 := *h
	h2.frames = append(slices.Clip(h.frames), f)
	return &h2
}

func (h *logHandler) Handle(_ context.Context, r slog.Record) error {
	var recordRoom, flatRoom [lineRoom]slog.Attr // a line's attributes, without an allocation when they fit
	attrs := flattenInline(h.topLevel(r, recordRoom[:0]), flatRoom[:0])
	lifted, found, attrs := liftEventType(attrs)
	var eventType *slog.Attr
	if found {
		eventType = &lifted
	}
	if reason, ok := refusalOf(attrs); ok && !h.sink.refusals.first(refusalKey(eventType, reason)) {
		return nil // counted: the interval's count line tells it
	}
	return h.writeLine(r, eventType, attrs)
}

// lineRoom is how many attributes a line has room for before its lists
// of them cost an allocation: more than the league's lines have.
const lineRoom = 12

// writeCount writes the line that counts the refusals of one kind that an
// interval did not write one by one.
func (h *logHandler) writeCount(k refusalKind, count int, interval time.Duration) {
	r := slog.NewRecord(time.Now(), slog.LevelWarn, "refusals counted, not written one by one", 0)
	eventType := slog.String("event_type", k.eventType)
	_ = h.writeLine(r, &eventType, []slog.Attr{slog.String(RefusedKey, k.reason), slog.Int("count", count),
		slog.Int64("interval_ms", interval.Milliseconds())})
}

// writeLine encodes one line and writes it.
func (h *logHandler) writeLine(r slog.Record, eventType *slog.Attr, attrs []slog.Attr) error {
	t := r.Time
	if t.IsZero() {
		t = time.Now()
	}
	buf := lineBuffers.Get().(*[]byte)
	defer putLineBuffer(buf)
	e := lineEncoder{buf: (*buf)[:0]}
	defer func() { *buf = e.buf }() // before the buffer goes back
	e.buf = append(e.buf, '{')
	e.member("timestamp")
	e.buf = append(e.buf, '"')
	e.buf = t.UTC().AppendFormat(e.buf, timestampLayout)
	e.buf = append(e.buf, '"')
	e.member("level")
	e.string(levelName(r.Level))
	e.member("component")
	e.string(h.component)
	e.member("agent_id")
	e.string(h.agentID)
	e.member("message")
	e.string(r.Message)
	if eventType != nil {
		e.member("event_type")
		e.value(eventType.Value)
	}
	for _, a := range attrs {
		if reservedKeys[a.Key] {
			a.Key = "attr_" + a.Key
		}
		e.attr(a)
	}
	e.buf = append(e.buf, '}', '\n')
	return h.sink.write(e.buf)
}

// topLevel nests the record's attributes inside the handler's groups and puts
// the handler's own attributes in front, giving the line's top-level members.
// A group left with nothing in it is dropped, as slog asks.
func (h *logHandler) topLevel(r slog.Record, cur []slog.Attr) []slog.Attr {
	r.Attrs(func(a slog.Attr) bool {
		cur = append(cur, a)
		return true
	})
	for i := len(h.frames) - 1; i >= 0; i-- {
		f := h.frames[i]
		if f.group == "" {
			cur = append(slices.Clip(f.attrs), cur...)
		} else if len(cur) > 0 {
			// A copy: a group keeping the caller's room would put the room on the heap for every line.
			cur = []slog.Attr{{Key: f.group, Value: slog.GroupValue(slices.Clone(cur)...)}}
		}
	}
	return cur
}

// flattenInline resolves attributes and splices groups with an empty key into
// their parent, so that an inline event_type is found at the top level.
func flattenInline(attrs, out []slog.Attr) []slog.Attr {
	for _, a := range attrs {
		a.Value = a.Value.Resolve()
		if a.Key == "" && a.Value.Kind() == slog.KindGroup {
			out = flattenInline(a.Value.Group(), out)
			continue
		}
		out = append(out, a)
	}
	return out
}

// liftEventType removes every top-level event_type attribute and returns the
// last one (a record's attribute overrides the logger's With). It removes
// them in place: attrs is the caller's own list (flattenInline's).
func liftEventType(attrs []slog.Attr) (eventType slog.Attr, found bool, rest []slog.Attr) {
	rest = attrs[:0]
	for _, a := range attrs {
		if a.Key == "event_type" {
			eventType, found = a, true
			continue
		}
		rest = append(rest, a)
	}
	return eventType, found, rest
}

// lineBuffers keep the lines' buffers from one line to the next: the
// sink's write is done with a line when it returns.
var lineBuffers = sync.Pool{New: func() any { buf := make([]byte, 0, 256); return &buf }}

// putLineBuffer gives a line's buffer back, unless an outsized line grew it.
func putLineBuffer(buf *[]byte) {
	if cap(*buf) <= 64<<10 {
		lineBuffers.Put(buf)
	}
}

// levelName spells slog's WARN the way the specification does: WARNING.
func levelName(l slog.Level) string {
	s := l.String()
	if rest, ok := strings.CutPrefix(s, "WARN"); ok {
		return "WARNING" + rest
	}
	return s
}

// lineEncoder builds one JSON line. Every string it writes, keys included,
// goes through redactSecrets.
type lineEncoder struct {
	buf []byte
}

// member writes a key, preceded by a comma unless it opens an object.
func (e *lineEncoder) member(key string) {
	if e.buf[len(e.buf)-1] != '{' {
		e.buf = append(e.buf, ',')
	}
	e.string(key)
	e.buf = append(e.buf, ':')
}

func (e *lineEncoder) attr(a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return // slog: an attribute with a zero key and value is ignored
	}
	if a.Value.Kind() == slog.KindGroup {
		group := a.Value.Group()
		if len(group) == 0 {
			return
		}
		if a.Key == "" {
			for _, g := range group {
				e.attr(g)
			}
			return
		}
		e.member(a.Key)
		if SecretKey(a.Key) {
			e.string(redacted)
			return
		}
		e.buf = append(e.buf, '{')
		for _, g := range group {
			e.attr(g)
		}
		e.buf = append(e.buf, '}')
		return
	}
	e.member(a.Key)
	if SecretKey(a.Key) {
		e.string(redacted)
		return
	}
	e.value(a.Value)
}

// value writes a resolved non-group value the way slog.JSONHandler would.
func (e *lineEncoder) value(v slog.Value) {
	switch v.Kind() {
	case slog.KindString:
		e.string(v.String())
	case slog.KindInt64:
		e.buf = strconv.AppendInt(e.buf, v.Int64(), 10)
	case slog.KindUint64:
		e.buf = strconv.AppendUint(e.buf, v.Uint64(), 10)
	case slog.KindFloat64:
		f := v.Float64()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			e.string(strconv.FormatFloat(f, 'g', -1, 64)) // JSON has no NaN or Inf
		} else {
			e.buf = strconv.AppendFloat(e.buf, f, 'g', -1, 64)
		}
	case slog.KindBool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case slog.KindDuration:
		e.buf = strconv.AppendInt(e.buf, int64(v.Duration()), 10)
	case slog.KindTime:
		e.string(v.Time().Format(time.RFC3339Nano))
	case slog.KindGroup:
		e.buf = append(e.buf, '{')
		for _, a := range v.Group() {
			e.attr(a)
		}
		e.buf = append(e.buf, '}')
	default:
		e.any(v.Any())
	}
}

// any writes an arbitrary value: an error as its message, anything else as
// its JSON. The JSON is decoded and walked so that token fields and secrets
// inside structs, maps and raw messages (a logged protocol message carries its
// auth_token) are redacted too; objects come out with sorted keys.
func (e *lineEncoder) any(x any) {
	if err, ok := x.(error); ok {
		e.string(err.Error())
		return
	}
	raw, err := json.Marshal(x)
	if err != nil {
		e.string("!ERROR: " + err.Error())
		return
	}
	var tree any
	if err := unmarshalNumbers(raw, &tree); err != nil {
		e.string("!ERROR: " + err.Error())
		return
	}
	e.tree(tree)
}

// tree writes a decoded JSON value, redacting as it goes.
func (e *lineEncoder) tree(x any) {
	switch x := x.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) > MaxLogItems {
			keys = append(keys[:MaxLogItems], fmt.Sprintf("…[%d more]", len(keys)-MaxLogItems))
			x[keys[MaxLogItems]] = nil
		}
		e.buf = append(e.buf, '{')
		for _, k := range keys {
			e.member(k)
			if SecretKey(k) {
				e.string(redacted)
			} else {
				e.tree(x[k])
			}
		}
		e.buf = append(e.buf, '}')
	case []any:
		e.buf = append(e.buf, '[')
		for i, v := range x {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if i == MaxLogItems {
				e.string(fmt.Sprintf("…[%d more]", len(x)-i))
				break
			}
			e.tree(v)
		}
		e.buf = append(e.buf, ']')
	case string:
		e.string(x)
	case json.Number:
		e.buf = append(e.buf, x...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	default: // nil
		e.buf = append(e.buf, "null"...)
	}
}

// string writes s, with secrets redacted, as a JSON string. HTML characters are
// left alone (unlike encoding/json) because the lines are read by people.
func (e *lineEncoder) string(s string) {
	s = clip(s)
	e.buf = append(e.buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				e.buf = append(e.buf, `\ufffd`...)
			case r == '\u2028' || r == '\u2029':
				e.buf = fmt.Appendf(e.buf, `\u%04x`, r)
			default:
				e.buf = append(e.buf, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case c == '"' || c == '\\':
			e.buf = append(e.buf, '\\', c)
		case c == '\n':
			e.buf = append(e.buf, `\n`...)
		case c == '\r':
			e.buf = append(e.buf, `\r`...)
		case c == '\t':
			e.buf = append(e.buf, `\t`...)
		case c < 0x20:
			e.buf = fmt.Appendf(e.buf, `\u%04x`, c)
		default:
			e.buf = append(e.buf, c)
		}
		i++
	}
	e.buf = append(e.buf, '"')
}

// What a log line keeps of what it is given: a participant's text (a
// sender, a display name, an error quoting its message) may be as long as a
// message is, and is cut here, in the one encoder every line goes through.
const (
	// MaxLogString is the most bytes of one string (a value, a key, the
	// message) a line keeps; the rest is told as "…[N bytes cut]".
	MaxLogString = 1024
	// MaxLogItems is the most elements of one list or object a line
	// keeps; the rest is told as "…[N more]".
	MaxLogItems = 64
)

// clip is s with secrets redacted, cut to MaxLogString bytes at a rune's
// start. It redacts first, so that no part of a secret across the cut
// shows; a refusal that is only counted never gets here.
func clip(s string) string {
	n := len(s)
	s = redactSecrets(s)
	if len(s) <= MaxLogString {
		return s
	}
	cut := MaxLogString
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("…[%d bytes cut]", max(n, len(s))-cut)
}

// unmarshalNumbers decodes JSON keeping numbers as json.Number, so that large
// integers survive a round trip unchanged.
func unmarshalNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}
