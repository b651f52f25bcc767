package check_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/league/check"
)

// TestGuideStatesEveryPlayerCheck holds docs/joining.md, the one guide a
// player's author reads, to the checker's catalogue: every check a player
// is held to names a section of the guide, and that section names the
// check's id where it states the rule.
func TestGuideStatesEveryPlayerCheck(t *testing.T) {
	raw, err := os.ReadFile("../../docs/joining.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := guideSections(string(raw))
	for _, d := range check.Catalogue {
		player := false
		for _, r := range d.Roles {
			player = player || r == check.PlayerRole
		}
		if !player {
			continue
		}
		anchor, ok := strings.CutPrefix(d.Guide, "docs/joining.md#")
		if !ok {
			t.Errorf("%s: its Guide %q is no section of docs/joining.md", d.ID, d.Guide)
			continue
		}
		text, ok := sections[anchor]
		if !ok {
			t.Errorf("%s: docs/joining.md has no section #%s", d.ID, anchor)
			continue
		}
		if !strings.Contains(text, "`"+d.ID+"`") {
			t.Errorf("%s: docs/joining.md#%s does not name the check", d.ID, anchor)
		}
		if d.Level == check.Should && !regexp.MustCompile("`"+regexp.QuoteMeta(d.ID)+"`[^.;)]*SHOULD").MatchString(text) {
			t.Errorf("%s: docs/joining.md#%s does not say the check is a SHOULD", d.ID, anchor)
		}
	}
}

// guideSections splits a Markdown page into its "## " sections, by the
// anchor a Markdown renderer gives each heading.
func guideSections(page string) map[string]string {
	out := map[string]string{}
	current := ""
	for _, line := range strings.Split(page, "\n") {
		if heading, ok := strings.CutPrefix(line, "## "); ok {
			current = headingAnchor(heading)
		}
		out[current] += line + "\n"
	}
	return out
}

// headingAnchor is GitHub's: lower case, spaces to hyphens, and every
// character but letters, digits, hyphens and underscores dropped.
func headingAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
