package store

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A participant's text of 900 KB, in a value, a key, the message, an
// error, a list and an object, leaves at most MaxLogString bytes of each
// in the line, cut at a rune's start and saying how much was cut; a secret
// across the cut is still redacted whole.
func TestLogLinesCutParticipantText(t *testing.T) {
	huge := strings.Repeat("é", 450<<10) // 900 KB, two bytes a rune
	secret := "tok-across-the-cut-0123456789"
	Redact(secret)
	logger, lines := newTestLogger(t, slog.LevelInfo)
	many := make([]string, 10_000)
	wide := map[string]string{}
	for i := range 1000 {
		wide[fmt.Sprint("k", i)] = "v"
	}
	logger.Warn("refused "+huge, "sender", huge, huge, "key", "err", fmt.Errorf("bad %s", huge),
		"list", many, "object", wide, "near", strings.Repeat("x", MaxLogString-5)+secret)
	got := lines()
	if len(got) != 1 {
		t.Fatalf("%d lines", len(got))
	}
	line := fmt.Sprint(got[0])
	if len(line) > 16*MaxLogString+64*MaxLogItems {
		t.Errorf("a line of %d bytes", len(line))
	}
	for _, key := range []string{"sender", "err", "message"} {
		v, _ := got[0][key].(string)
		if len(v) > MaxLogString+32 || !strings.HasSuffix(v, "bytes cut]") {
			t.Errorf("%s: %d bytes, ending %q; want it cut at %d", key, len(v), v[max(0, len(v)-20):], MaxLogString)
		}
		if strings.ContainsRune(v, '\ufffd') {
			t.Errorf("%s was cut inside a rune", key)
		}
	}
	if list, _ := got[0]["list"].([]any); len(list) != MaxLogItems+1 || list[MaxLogItems] != fmt.Sprintf("…[%d more]", 10_000-MaxLogItems) {
		t.Errorf("a list of %d items kept %d", 10_000, len(list))
	}
	if obj, _ := got[0]["object"].(map[string]any); len(obj) != MaxLogItems+1 {
		t.Errorf("an object of 1000 keys kept %d", len(obj))
	}
	if near, _ := got[0]["near"].(string); strings.Contains(near, secret[:10]) {
		t.Errorf("a secret across the cut shows: %q", near[len(near)-40:])
	}
}

// Refusals of one kind (event_type and reason) are written one in full,
// then counted: a flood of ten thousand writes two lines per kind, the
// second with the count, when the interval ends or the log closes.
func TestRefusalsCounted(t *testing.T) {
	defer func(was time.Duration) { RefusalInterval = was }(RefusalInterval)
	RefusalInterval = time.Hour // the log's close ends the interval here
	path := filepath.Join(t.TempDir(), "r.log.jsonl")
	logger, closer, err := NewLogger(path, "referee:REF01", "REF01", slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	sender := strings.Repeat("s", 900<<10)
	for i := range 10_000 {
		reason := "E011"
		if i%2 == 1 {
			reason = "E012"
		}
		logger.Warn("posted answer refused", "event_type", "POSTED_ANSWER_REFUSED", RefusedKey, reason, "sender", sender)
	}
	logger.Info("not a refusal", "event_type", "OTHER")
	if err := closer.Close(); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	lines := readLogLines(t, path)
	t.Logf("10,000 refusals of 900 KB senders: %d lines, %d bytes", len(lines), info.Size())
	if len(lines) != 5 || info.Size() > 8*MaxLogString {
		t.Fatalf("%d lines, %d bytes; want 5 lines: two refusals, the other line, two counts", len(lines), info.Size())
	}
	counts := map[string]float64{}
	for _, l := range lines[3:] {
		counts[l[RefusedKey].(string)] = l["count"].(float64)
	}
	if counts["E011"] != 4999 || counts["E012"] != 4999 {
		t.Errorf("counts %v, want 4999 of each", counts)
	}
}

// Once an interval ends, its count is written and the next refusal of the
// kind is written in full again.
func TestRefusalIntervalEnds(t *testing.T) {
	defer func(was time.Duration) { RefusalInterval = was }(RefusalInterval)
	RefusalInterval = 50 * time.Millisecond
	path := filepath.Join(t.TempDir(), "r.log.jsonl")
	logger, closer, err := NewLogger(path, "manager", "LM", slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	for range 3 {
		logger.Warn("registration rejected", "event_type", "REGISTRATION_REJECTED", RefusedKey, "E003")
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(readLogLines(t, path)) < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // polling the file for the count line, bounded
	}
	logger.Warn("registration rejected", "event_type", "REGISTRATION_REJECTED", RefusedKey, "E003")
	lines := readLogLines(t, path)
	if len(lines) != 3 || lines[1]["count"] != float64(2) || lines[2]["message"] != "registration rejected" {
		t.Fatalf("lines %v; want the refusal, a count of 2, the next refusal in full", lines)
	}
}
