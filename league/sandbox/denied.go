package sandbox

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// Output is what the end of a program's output says of how it ended:
// for a message about a program that exited, or never registered.
type Output struct {
	// Last are its last lines, without the stack frames of Java and Node
	// (the exception's own line says more) nor leaguetui's lines.
	Last []string
	// Refused are the absolute paths its lines that tell of a permission
	// error name (Permission denied, EACCES, PermissionError,
	// AccessDeniedException), at most maxRefused; Line is the first such
	// line, with a path or not.
	Refused []string
	Line    string
}

const (
	outputTail = 64 << 10 // the end of the output file read
	maxRefused = 3
	maxLine    = 300 // characters of a line quoted
)

var (
	permissionError = regexp.MustCompile(`(?i)permission denied|\beacces\b|accessdenied|permissionerror`)
	// absolutePath is a path after a space, a quote, a bracket, '=' or ','
	// (never a URL's: "//" starts none).
	absolutePath = regexp.MustCompile("(?:^|[\\s'\"`(\\[=,])(/[^/\\s'\"`()\\[\\],;][^\\s'\"`()\\[\\],;]*)")
	stackFrame   = regexp.MustCompile(`^\s+at \S|^\s*\.\.\. \d+ more$`)
)

// ReadOutput reads the end of a program's output file: its last n lines
// and what it says of permission errors. A missing file says nothing.
func ReadOutput(path string, n int) Output {
	f, err := os.Open(path)
	if err != nil {
		return Output{}
	}
	defer f.Close()
	partial := false
	if info, err := f.Stat(); err == nil && info.Size() > outputTail {
		if _, err := f.Seek(-outputTail, io.SeekEnd); err == nil {
			partial = true
		}
	}
	data, _ := io.ReadAll(io.LimitReader(f, outputTail))
	text := string(data)
	if partial {
		_, text, _ = strings.Cut(text, "\n") // the first line is cut off
	}
	return ParseOutput(text, n)
}

// ParseOutput is ReadOutput of text, the end of the output.
func ParseOutput(text string, n int) Output {
	var o Output
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "leaguetui: ") {
			continue
		}
		if !stackFrame.MatchString(line) {
			o.Last = append(o.Last, strings.TrimSpace(line))
		}
		if !permissionError.MatchString(line) {
			continue
		}
		if o.Line == "" {
			o.Line = clip(strings.TrimSpace(line))
		}
		for _, m := range absolutePath.FindAllStringSubmatch(line, -1) {
			path := strings.TrimRight(m[1], ".:")
			if !seen[path] && len(o.Refused) < maxRefused {
				seen[path] = true
				o.Refused = append(o.Refused, path)
			}
		}
	}
	if len(o.Last) > n {
		o.Last = o.Last[len(o.Last)-n:]
	}
	return o
}

func clip(line string) string {
	if r := []rune(line); len(r) > maxLine {
		return string(r[:maxLine]) + "…"
	}
	return line
}

// Advice is a clause saying what a permission error in the output of a
// confined program may mean, and how to grant what it was refused
// (grant: "--read PATH", a roster entry's "read"); "" when the output
// tells of none. A path that does not exist it may have tried to make,
// where a confined program writes only its own folders.
func (o Output) Advice(grant string) string {
	if o.Line == "" {
		return ""
	}
	var exist, missing []string
	for _, p := range o.Refused {
		if _, err := os.Lstat(p); err == nil {
			exist = append(exist, p)
		} else {
			missing = append(missing, p)
		}
	}
	var parts []string
	if len(exist) > 0 {
		parts = append(parts, fmt.Sprintf("the sandbox may have denied it %s: grant it with %s",
			strings.Join(exist, ", "), grant))
	}
	if len(missing) > 0 {
		parts = append(parts, fmt.Sprintf("it may have tried to make %s, and the sandbox lets it write only its {data} "+
			"and its temporary folder ($TMPDIR)", strings.Join(missing, ", ")))
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("its output tells of a permission error (%q): the sandbox may have denied it: "+
			"grant it with %s", o.Line, grant))
	}
	return strings.Join(parts, "; ")
}
