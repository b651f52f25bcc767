package referee

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
)

// TestMatchLinesAsWithAndPairs: a match's lines, written with LogAttrs
// (matchRun.log), are the lines Log.With("match_id", …) and key-value
// pairs write, byte for byte but the time.
func TestMatchLinesAsWithAndPairs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "referee.log")
	log, closer, err := store.NewLogger(path, "referee", "REF01", slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	run := &matchRun{r: &Referee{Node: &node.Node{Log: log}}, start: protocol.StartMatch{Envelope: protocol.Envelope{MatchID: "R1M<2>"},
		PlayerAID: "P01", PlayerBID: "P\"02"}}
	withPairs := log.With("match_id", run.start.MatchID)
	failure := errors.New("refused: tok_secret")
	withPairs.Info("match started", "event_type", "MATCH_STARTED", "player_A", "P01", "player_B", "P\"02")
	run.log(slog.LevelInfo, "match started", slog.String("event_type", "MATCH_STARTED"), slog.String("player_A", "P01"), slog.String("player_B", "P\"02"))
	withPairs.Error("result not reported", "event_type", "REPORT_FAILED", "err", failure)
	run.log(slog.LevelError, "result not reported", slog.String("event_type", "REPORT_FAILED"), slog.Any("err", failure))
	withPairs.Info("match finished", "event_type", "MATCH_FINISHED", "status", "WIN", "winner", "")
	run.log(slog.LevelInfo, "match finished", slog.String("event_type", "MATCH_FINISHED"), slog.String("status", "WIN"), slog.String("winner", ""))
	if err := closer.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	timestamp := regexp.MustCompile(`"timestamp":"[^"]*"`)
	lines := strings.Split(strings.TrimSuffix(timestamp.ReplaceAllString(string(data), `"timestamp":""`), "\n"), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 6:\n%s", len(lines), data)
	}
	for i := 0; i < len(lines); i += 2 {
		if lines[i] != lines[i+1] {
			t.Errorf("LogAttrs wrote\n%s\nWith and pairs\n%s", lines[i+1], lines[i])
		}
	}
}
