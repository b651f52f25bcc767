package llm_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
	"github.com/leaguetui/leaguetui/league/control"
)

// A model player stopped while its provider holds a move's request gives
// the request up and exits at once, not when the move's deadline passes:
// the model call ends with the player's lifetime.
func TestStoppedPlayerCancelsItsModelCall(t *testing.T) {
	const adminToken = "adm-llm-shutdown-test-0123456789abcdef"
	fake := fakellm.Start(fakellm.Hang)
	t.Cleanup(fake.Close)
	dir := t.TempDir()
	timing := []string{"--move-timeout", "60s", "--retry-delay", "50ms", "--attempts", "1", "--suspend-after", "0"}
	mgr := leaguetest.StartManager(t, dir, adminToken, timing...)
	leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", timing...)
	model := leaguetest.Start(t, "player model", dir+"/test-output", true, []string{"OPENAI_API_KEY=" + testKey},
		append([]string{"player", "--port", "0", "--data", dir, "--manager", mgr.Endpoint, "--name", "model",
			"--strategy", "llm", "--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--llm-model", "fake"}, timing...)...)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "random", append([]string{"--strategy", "random"}, timing...)...)
	if err := control.New(mgr.Endpoint, adminToken).Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); len(fake.Requests()) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the model was never asked")
		}
		time.Sleep(20 * time.Millisecond) // polling the fake, bounded by the deadline
	}
	stopped := time.Now()
	if err := model.Stop(15 * time.Second); err != nil {
		t.Fatalf("the model player, asked to stop with a request held for a 60 s move: %v", err)
	}
	t.Logf("the model player exited %v after SIGTERM", time.Since(stopped).Round(time.Millisecond))
	// The move's call ended before the player did: its failure is logged
	// before the shutdown's last line. A call left running would have been
	// cut off by the exit, unlogged.
	raw, err := os.ReadFile(filepath.Join(dir, "logs", "agents", "model.log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(raw)
	failed, shutdown := strings.Index(log, `"event_type":"MODEL_ERROR"`), strings.Index(log, `"event_type":"SYSTEM_SHUTDOWN"`)
	if failed < 0 || shutdown < 0 || failed > shutdown {
		t.Errorf("the model player's log has no cancelled model call before its shutdown:\n%s", log)
	}
}
