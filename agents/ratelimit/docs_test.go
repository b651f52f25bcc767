package ratelimit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDocsSayTheTuning: the section of docs/games.md on rate limits names
// the figures this package runs with, and the headers and file it reads.
func TestDocsSayTheTuning(t *testing.T) {
	raw, err := os.ReadFile("../../docs/games.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	start := strings.Index(page, "### Rate limits")
	if start < 0 {
		t.Fatal("docs/games.md has no Rate limits section")
	}
	section := page[start:]
	if end := strings.Index(section[1:], "\n### "); end >= 0 {
		section = section[:end+1]
	}
	section = strings.Join(strings.Fields(section), " ") // the lines as one
	want := []string{
		fmt.Sprintf("to %g of it", decrease),
		fmt.Sprintf("adds %g requests a second", increaseStep),
		fmt.Sprintf("(%g times that past %g of the rate the last cut came at", peakStep, nearPeak),
		fmt.Sprintf("once per %s", words(cutEvery)),
		fmt.Sprintf("(%s if it gives neither, %s at most)", words(defaultHold), words(maxHold)),
		fmt.Sprintf("never below one request a %s", words(time.Duration(float64(time.Second)/minRate))),
		fmt.Sprintf("(%d KiB, times at most %s ahead", maxStateBytes>>10, words(maxHold)),
		fmt.Sprintf("bytes / %d", bytesPerToken),
		fmt.Sprintf("less what %s at the stated rate takes (at least %d request)", words(creditMargin), creditKept),
		"`" + LimiterRefused + "`",
		"`" + filepath.ToSlash(Path("", "<id>")) + "`",
	}
	for _, h := range [][]string{requestHeaders.limit, tokenHeaders.limit} {
		for _, name := range h {
			want = append(want, "`"+name+"`")
		}
	}
	for _, w := range want {
		if !strings.Contains(section, w) {
			t.Errorf("docs/games.md's Rate limits section does not say %q", w)
		}
	}
}

// words writes a duration as the page does: "1 s", "2 minutes", "minute".
func words(d time.Duration) string {
	switch {
	case d == time.Minute:
		return "minute"
	case d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	default:
		return fmt.Sprintf("%g s", d.Seconds())
	}
}
