package roster_test

import (
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestOutsiderTakesNoReservedID: an outside player registering before the
// league's own players gets the first id they do not need, and they get
// theirs (it used to take P01, and the league's own P01 was refused).
func TestOutsiderTakesNoReservedID(t *testing.T) {
	data := t.TempDir()
	manager := leaguetest.StartManager(t, data, "adm", "--reserve", "P01,bob")
	url := manager.Endpoint
	outsider := leaguetest.StartPlayer(t, t.TempDir(), url, "zed")
	if outsider.ID != "P03" {
		t.Errorf("the outsider registering first got %s, want P03", outsider.ID)
	}
	own := leaguetest.StartPlayer(t, data, url, "P01")
	bob := leaguetest.StartPlayer(t, data, url, "bob")
	if own.ID != "P01" || bob.ID != "P02" {
		t.Errorf("the league's own players got %s and %s, want P01 and P02 (kept for them)", own.ID, bob.ID)
	}
}
