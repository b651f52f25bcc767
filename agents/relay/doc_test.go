package relay_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/relay"
)

// TestJoiningStatesTheRelaysBounds holds docs/joining.md's pull-seat
// section to the relay's bounds: each sentence that names one says the
// constant's value.
func TestJoiningStatesTheRelaysBounds(t *testing.T) {
	raw, err := os.ReadFile("../../docs/joining.md")
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Join(strings.Fields(string(raw)), " ") // the page's line breaks fall anywhere
	for _, want := range []string{
		fmt.Sprintf("no call came within %d seconds", relay.DefaultPollWait/time.Second),
		fmt.Sprintf("more than %d polls of one seat at once (429)", relay.Pollers),
		fmt.Sprintf("while %d of the seat's calls are waiting or unanswered", relay.DefaultQueue),
		fmt.Sprintf("the relay holds %d MiB of calls for all seats together", relay.DefaultMaxHeld>>20),
		fmt.Sprintf("A call is held at most %d seconds (504), and %d seconds once the manager is stopping",
			relay.DefaultMaxHold/time.Second, relay.DrainGrace/time.Second),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("docs/joining.md does not say %q", want)
		}
	}
}
