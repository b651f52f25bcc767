package process

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Placeholders names the values an outside program's command line may ask
// for, written {name} in its arguments, its folder and its environment: the
// roster's program entries and `leaguetui check -- COMMAND` both use them.
type Placeholders map[string]string

// The placeholders leaguetui fills in for a program it starts.
const (
	PlaceholderManager = "manager" // the manager's /mcp URL to register with
	PlaceholderPort    = "port"    // a free port for the program to listen on
	PlaceholderName    = "name"    // the display name it should register with
	PlaceholderData    = "data"    // a data folder of its own
)

var placeholderPattern = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Expand replaces every {name} in s with its value. A placeholder it does not
// know is an error naming it and the ones it knows, so that a typo in a
// command line is caught before the program starts rather than passed to it
// literally. "{{" and "}}" stand for a literal brace.
func (p Placeholders) Expand(s string) (string, error) {
	const open, closing = "\x00open\x00", "\x00close\x00"
	s = strings.NewReplacer("{{", open, "}}", closing).Replace(s)
	var unknown string
	s = placeholderPattern.ReplaceAllStringFunc(s, func(m string) string {
		key := m[1 : len(m)-1]
		if v, ok := p[key]; ok {
			return v
		}
		if unknown == "" {
			unknown = m
		}
		return m
	})
	if unknown != "" {
		return "", fmt.Errorf("unknown placeholder %s (known: %s)", unknown, p.known())
	}
	return strings.NewReplacer(open, "{", closing, "}").Replace(s), nil
}

// ExpandAll expands every string of args, in order.
func (p Placeholders) ExpandAll(args []string) ([]string, error) {
	out := make([]string, len(args))
	for i, a := range args {
		v, err := p.Expand(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i+1, err)
		}
		out[i] = v
	}
	return out, nil
}

func (p Placeholders) known() string {
	names := make([]string, 0, len(p))
	for k := range p {
		names = append(names, "{"+k+"}")
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
