package llm_test

import (
	"context"
	"testing"

	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
	"github.com/leaguetui/leaguetui/league/control"
)

// modelMemoryBound is a figure the unbounded player passes many times
// over: it read a 200 MB answer whole, 1.4 GB at its peak.
const modelMemoryBound = 300 << 20

// A provider that answers 200 MB: the model player reads it up to
// --llm-reply-bytes only, its move fails as MODEL_GENERATION_ERROR
// (REPLY_TOO_LARGE) and its memory stays bounded. Real processes: a
// manager, a referee, the model player and a random one.
func TestProviderReplyOverItsCap(t *testing.T) {
	const adminToken = "adm-llm-limits-test-0123456789abcdef"
	fake := fakellm.Start(fakellm.Huge)
	t.Cleanup(fake.Close)
	dir := t.TempDir()
	timing := []string{"--move-timeout", "20s", "--retry-delay", "50ms", "--attempts", "1", "--suspend-after", "0"}
	mgr := leaguetest.StartManager(t, dir, adminToken, timing...)
	leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", timing...)
	model := leaguetest.Start(t, "player model", dir+"/test-output", true, []string{"OPENAI_API_KEY=" + testKey},
		append([]string{"player", "--port", "0", "--data", dir, "--manager", mgr.Endpoint, "--name", "model",
			"--strategy", "llm", "--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--llm-model", "fake",
			"--llm-reply-bytes", "256KiB"}, timing...)...)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "random", append([]string{"--strategy", "random"}, timing...)...)
	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.UntilCompleted(t, ctl, 0, leagueTimeout)
	matches := leaguetest.ReadMatchFiles[match](t, dir, leagueID)
	if len(matches) != 1 {
		t.Fatalf("%d match files, want 1", len(matches))
	}
	var refused bool
	for _, r := range modelReplies(t, matches[0]) {
		if r.Player != model.ID {
			continue
		}
		if r.ErrorType != engine.ErrorGeneration || r.Metadata["exception_type"] != "ReplyTooLarge" {
			t.Errorf("the model's move: %+v, want %s with exception_type ReplyTooLarge (%s)", r, engine.ErrorGeneration, rpc.ReplyTooLarge)
		}
		refused = true
	}
	if !refused {
		t.Fatalf("no move of the model player in %s's transcript", matches[0].MatchID)
	}
	if len(fake.Requests()) == 0 {
		t.Fatal("the provider was never asked")
	}
	peak := leaguetest.PeakRSS(t, model.PID())
	t.Logf("model player peak RSS: %.1f MiB (bound %d MiB)", float64(peak)/(1<<20), modelMemoryBound>>20)
	if peak > modelMemoryBound {
		t.Errorf("the model player peaked at %.1f MiB, past the bound of %d MiB", float64(peak)/(1<<20), modelMemoryBound>>20)
	}
	checkNoKey(t, dir, "")
}
