package manager

import (
	"testing"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// TestUntilDecidedJournalsItsMargin: --until-decided reaches the format
// with its margin as a number, the default when none is given, so that
// the journal's league_started replays the same way whatever the default
// becomes.
func TestUntilDecidedJournalsItsMargin(t *testing.T) {
	for _, c := range []struct {
		format config.Format
		margin float64
	}{{config.Format{UntilDecided: 40}, engine.DefaultEquivalenceMargin}, {config.Format{UntilDecided: 40, EquivalenceMargin: 50}, 50},
		{config.Format{UntilSeparated: 40, EquivalenceMargin: 50}, 0}} {
		spec, err := formatSpec(c.format)
		if err != nil || spec.UntilDecided != c.format.UntilDecided || spec.EquivalenceMargin != c.margin {
			t.Errorf("%+v: %+v (%v), want margin %g", c.format, spec, err, c.margin)
		}
	}
}
