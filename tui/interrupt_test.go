package tui

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/league/control"
)

// TestRunReportsHowTheUserLeft runs the whole program on a fake terminal:
// Ctrl-C is an interruption (leaguetui exits 130 on it, as --no-ui does),
// q is an ordinary quit.
func TestRunReportsHowTheUserLeft(t *testing.T) {
	fake := newFakeManager(t)
	for keys, want := range map[string]error{"\x03": ErrInterrupted, "q": nil} {
		ctx := t.Context()
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, Options{Control: control.New(fake.srv.URL, ""), HealthEvery: -1, NoColor: true,
				Input: strings.NewReader(keys), Output: io.Discard})
		}()
		select {
		case err := <-done:
			if !errors.Is(err, want) || (want == nil && err != nil) {
				t.Errorf("keys %q: Run returned %v, want %v", keys, err, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("keys %q: the console did not quit", keys)
		}
	}
}
