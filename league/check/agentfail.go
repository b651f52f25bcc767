package check

import (
	"errors"
	"fmt"
	"strings"

	"github.com/leaguetui/leaguetui/league/sandbox"
)

// lastLines is how many lines of the agent's output a message about its
// end quotes.
const lastLines = 5

// grantHint is how a path the sandbox denied the agent is granted.
const grantHint = `--read PATH (a roster entry's "read")`

// lastWords is the end of the agent's output, for a message about an
// agent that exited or never registered: its last lines and, when one of
// them tells of a permission error where it ran in the sandbox, the path
// it was refused and how to grant it.
func (s *session) lastWords() string {
	if s.agent == nil {
		return ""
	}
	out := sandbox.ReadOutput(s.agent.outPath, lastLines)
	words := "nothing"
	if len(out.Last) > 0 {
		words = strings.Join(out.Last, " | ")
	}
	if !s.opts.NoSandbox {
		if advice := out.Advice(grantHint); advice != "" {
			words += "; " + advice
		}
	}
	return words
}

// noRegistration says why no register request reached the manager: what
// the wait for it found and, where that does not say it already (the
// agent's exit does), the agent's last words.
func (s *session) noRegistration(err error) string {
	why := fmt.Sprintf("no %s reached the manager: %v", s.registerType(), err)
	if s.agent != nil && !errors.Is(err, errGone) {
		why += "; its last output: " + s.lastWords()
	}
	return why
}
