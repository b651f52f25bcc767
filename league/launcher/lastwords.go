package launcher

import (
	"strings"

	"github.com/leaguetui/leaguetui/league/sandbox"
)

// lastWords is the end of a roster program's output, for the message
// about a program that stays down before it registered: its last lines
// and, when one tells of a permission error, the path it was refused and
// how to grant it. "" when its output holds nothing.
func lastWords(log string) string {
	out := sandbox.ReadOutput(log, 5)
	if len(out.Last) == 0 {
		return ""
	}
	words := "; its last output: " + strings.Join(out.Last, " | ")
	if advice := out.Advice(`its roster entry's "read"`); advice != "" {
		words += "; " + advice
	}
	return words
}
