package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestLogger returns a logger on a fresh file and a function that closes
// it and returns the lines written, each decoded.
func newTestLogger(t *testing.T, level slog.Level) (*slog.Logger, func() []map[string]any) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "logs", "agents", "P01.log.jsonl")
	logger, closer, err := NewLogger(path, "player:P01", "P01", level)
	if err != nil {
		t.Fatal(err)
	}
	return logger, func() []map[string]any {
		t.Helper()
		if err := closer.Close(); err != nil {
			t.Fatal(err)
		}
		return readLogLines(t, path)
	}
}

func readLogLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		lines = append(lines, m)
	}
	return lines
}

func TestLoggerKeysAndOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "league.log.jsonl")
	logger, closer, err := NewLogger(path, "league_manager", "LM", slog.LevelDebug)
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2025, 1, 15, 12, 34, 56, 789_000_000, time.FixedZone("CET", 3600))
	r := slog.NewRecord(when, slog.LevelWarn, "round done", 0)
	r.AddAttrs(slog.Int("round_id", 3), slog.String("event_type", "ROUND_COMPLETED"), slog.Bool("last", false))
	if err := logger.Handler().Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	closer.Close()

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"timestamp":"2025-01-15T11:34:56.789Z","level":"WARNING","component":"league_manager",` +
		`"agent_id":"LM","message":"round done","event_type":"ROUND_COMPLETED","round_id":3,"last":false}` + "\n"
	if string(data) != want {
		t.Errorf("line\n%s\nwant\n%s", data, want)
	}
}

func TestLoggerLevels(t *testing.T) {
	logger, lines := newTestLogger(t, slog.LevelInfo)
	logger.Debug("hidden")
	logger.Info("i")
	logger.Warn("w")
	logger.Error("e")
	logger.Log(context.Background(), slog.LevelWarn+1, "w1")

	got := lines()
	want := []string{"INFO", "WARNING", "ERROR", "WARNING+1"}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d", len(got), len(want))
	}
	for i, l := range got {
		if l["level"] != want[i] {
			t.Errorf("line %d level %v, want %s", i, l["level"], want[i])
		}
	}
}

func TestLoggerAttributes(t *testing.T) {
	logger, lines := newTestLogger(t, slog.LevelDebug)
	logger.With("event_type", "FROM_WITH", "match_id", "R1M1").
		WithGroup("req").
		Info("sent", "to", "P02", slog.Group("", slog.String("inline", "x")))
	logger.Info("no event type", "message", "clash", "agent_id", "P99")
	logger.Info("inline event type", slog.Group("", slog.String("event_type", "INLINED")))
	logger.WithGroup("empty").Info("empty group dropped")
	logger.Info("kinds", "d", 1500*time.Millisecond, "f", 0.5, "nan", nanValue(),
		"err", errors.New("boom"), "data", map[string]int{"b": 2, "a": 1})

	got := lines()
	tests := []struct {
		line int
		key  string
		want any // nil: key absent
	}{
		{0, "event_type", "FROM_WITH"},
		{0, "match_id", "R1M1"},
		{0, "req", map[string]any{"to": "P02", "inline": "x"}},
		{1, "event_type", nil},
		{1, "message", "no event type"},
		{1, "attr_message", "clash"},
		{1, "agent_id", "P01"},
		{1, "attr_agent_id", "P99"},
		{2, "event_type", "INLINED"},
		{3, "empty", nil},
		{4, "d", float64(1500 * time.Millisecond)},
		{4, "f", 0.5},
		{4, "nan", "NaN"},
		{4, "err", "boom"},
		{4, "data", map[string]any{"a": float64(1), "b": float64(2)}},
	}
	for _, tt := range tests {
		v, ok := got[tt.line][tt.key]
		if tt.want == nil {
			if ok {
				t.Errorf("line %d has %q = %v, want it absent", tt.line, tt.key, v)
			}
			continue
		}
		if !jsonEqual(v, tt.want) {
			t.Errorf("line %d %q = %#v, want %#v", tt.line, tt.key, v, tt.want)
		}
	}
}

func nanValue() float64 {
	zero := 0.0
	return zero / zero
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

type loginMessage struct {
	MessageType string          `json:"message_type"`
	AuthToken   string          `json:"auth_token"`
	Nested      json.RawMessage `json:"nested"`
}

func TestLoggerRedaction(t *testing.T) {
	const secret = "tok_3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
	const other = "tok_second_secret_value"
	Redact(secret)
	Redact(other)
	Redact("") // ignored: redacting "" would garble every line

	tests := []struct {
		name string
		log  func(*slog.Logger)
		key  string // a top-level key to check; "" to check only that no secret leaks
		want any
	}{
		{"auth_token attr", func(l *slog.Logger) { l.Info("m", "auth_token", "plain-unregistered") }, "auth_token", redacted},
		{"token attr", func(l *slog.Logger) { l.Info("m", "token", "abc") }, "token", redacted},
		{"admin_token attr", func(l *slog.Logger) { l.Info("m", "admin_token", "abc") }, "admin_token", redacted},
		{"suffix _token", func(l *slog.Logger) { l.Info("m", "session_token", 42) }, "session_token", redacted},
		{"camel case", func(l *slog.Logger) { l.Info("m", "authToken", "abc") }, "authToken", redacted},
		{"token group", func(l *slog.Logger) { l.Info("m", slog.Group("refresh_token", "v", "abc")) }, "refresh_token", redacted},
		{"token inside group", func(l *slog.Logger) {
			l.Info("m", slog.Group("auth", "token", "abc", "user", "P01"))
		}, "auth", map[string]any{"token": redacted, "user": "P01"}},
		{"token inside WithGroup", func(l *slog.Logger) {
			l.WithGroup("g").With("auth_token", "abc").Info("m")
		}, "g", map[string]any{"auth_token": redacted}},
		{"secret equals value", func(l *slog.Logger) { l.Info("m", "header", secret) }, "header", redacted},
		{"secret inside value", func(l *slog.Logger) {
			l.Info("m", "header", "Bearer "+secret+"!")
		}, "header", "Bearer [redacted]!"},
		{"secret inside message", func(l *slog.Logger) { l.Info("got " + secret + " from P01") }, "message", "got [redacted] from P01"},
		{"secret inside group", func(l *slog.Logger) {
			l.Info("m", slog.Group("req", slog.Group("hdr", "x", other)))
		}, "req", map[string]any{"hdr": map[string]any{"x": redacted}}},
		{"secret in With", func(l *slog.Logger) { l.With("peer", secret).Info("m") }, "peer", redacted},
		{"secret as event_type", func(l *slog.Logger) { l.Info("m", "event_type", secret) }, "event_type", redacted},
		{"secret in error", func(l *slog.Logger) {
			l.Error("m", "err", errors.New("bad token "+secret))
		}, "err", "bad token [redacted]"},
		{"secret as key", func(l *slog.Logger) { l.Info("m", secret, 1) }, redacted, float64(1)},
		{"struct with auth_token", func(l *slog.Logger) {
			l.Info("m", "msg", loginMessage{MessageType: "LOGIN", AuthToken: "unregistered",
				Nested: json.RawMessage(`{"list":["` + other + `"],"player_token":"x"}`)})
		}, "msg", map[string]any{"message_type": "LOGIN", "auth_token": redacted,
			"nested": map[string]any{"list": []any{redacted}, "player_token": redacted}}},
		{"map keyed by secret", func(l *slog.Logger) {
			l.Info("m", "tokens", map[string]string{secret: "P01"}, "who", map[string]string{secret: "P01"})
		}, "who", map[string]any{redacted: "P01"}},
		{"stringer-free LogValuer", func(l *slog.Logger) { l.Info("m", "v", secretValuer{}) }, "v", map[string]any{"inner": redacted}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.jsonl")
			logger, closer, err := NewLogger(path, "referee:REF01", "REF01", slog.LevelDebug)
			if err != nil {
				t.Fatal(err)
			}
			tt.log(logger)
			closer.Close()

			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{secret, other, "abc", "plain-unregistered", "unregistered"} {
				if bytes.Contains(data, []byte(s)) {
					t.Fatalf("line leaks %q:\n%s", s, data)
				}
			}
			line := readLogLines(t, path)[0]
			if got := line[tt.key]; !jsonEqual(got, tt.want) {
				t.Errorf("%q = %#v, want %#v\nline: %s", tt.key, got, tt.want, data)
			}
		})
	}
}

// secretValuer resolves lazily to a group holding a registered secret.
type secretValuer struct{}

func (secretValuer) LogValue() slog.Value {
	return slog.GroupValue(slog.String("inner", "tok_second_secret_value"))
}

func TestRedactOverlappingSecrets(t *testing.T) {
	const short, long = "overlap_abc", "overlap_abc_and_more"
	Redact(short)
	Redact(long)
	logger, lines := newTestLogger(t, slog.LevelInfo)
	logger.Info(long + " " + short)
	if got := lines()[0]["message"]; got != "[redacted] [redacted]" {
		t.Errorf("message %q, want both secrets redacted whole", got)
	}
}

func TestLoggerAppendsAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "system", "orchestrator.log.jsonl")
	for _, msg := range []string{"first run", "second run"} {
		logger, closer, err := NewLogger(path, "orchestrator", "orchestrator", slog.LevelInfo)
		if err != nil {
			t.Fatal(err)
		}
		logger.Info(msg, "event_type", "SYSTEM_STARTUP")
		if err := closer.Close(); err != nil {
			t.Fatal(err)
		}
	}
	lines := readLogLines(t, path)
	if len(lines) != 2 || lines[0]["message"] != "first run" || lines[1]["message"] != "second run" {
		t.Errorf("lines %v, want both runs in order", lines)
	}
}

// Concurrent logging and Redact must not race, and lines must not interleave.
func TestLoggerConcurrent(t *testing.T) {
	logger, lines := newTestLogger(t, slog.LevelInfo)
	const goroutines, each = 8, 50
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			secret := "concurrent_secret_" + strings.Repeat("x", g+1)
			Redact(secret)
			for range each {
				logger.With("g", g).Info("tick", "s", secret)
			}
		})
	}
	wg.Wait()
	got := lines()
	if len(got) != goroutines*each {
		t.Fatalf("got %d lines, want %d", len(got), goroutines*each)
	}
	for _, l := range got {
		if l["s"] != redacted {
			t.Fatalf("secret logged after Redact returned: %v", l)
		}
	}
}

// BenchmarkLogLine is a player's line of each move ("move chosen",
// CHOICE_MADE) with tokens registered for redaction, as in a league.
func BenchmarkLogLine(b *testing.B) {
	Redact("tok_" + strings.Repeat("5e", 30))
	log, closer, err := NewLogger(os.DevNull, "player", "P05", slog.LevelInfo) // the line, not the disk
	if err != nil {
		b.Fatal(err)
	}
	defer closer.Close()
	b.ReportAllocs()
	for b.Loop() {
		log.Info("move chosen", "event_type", "CHOICE_MADE", "match_id", "R3M12", "choice", "even")
	}
}
