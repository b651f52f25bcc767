// Package clidoc describes a command line built with the standard flag
// package, so that the reference in docs/cli.md and the shell completions
// come from the same flag definitions the program parses, never from a
// copy that can drift.
package clidoc

import (
	"flag"
	"sort"
	"strings"
)

// Command is one command of the program: its name as typed, the help text
// it prints above its flags, and its flags.
type Command struct {
	Name  string // "" for the program itself, e.g. "manager" for "leaguetui manager"
	Help  string
	Flags []Flag
	// Args are the words the command takes after its flags, when they are
	// a fixed set (completion's shells); nil otherwise.
	Args []string
}

// Flag is one flag as the flag package defines it.
type Flag struct {
	Name    string
	Value   string // the value's name, as flag.UnquoteUsage reads it ("" for a boolean)
	Usage   string // with the backquotes around the value's name removed
	Default string // "" when the default is the type's zero value
	// Shared flags are the config flags, of which each command takes
	// those it reads; the reference describes them once.
	Shared bool
	// Choices are the values the flag takes, when they are a fixed set;
	// the completions offer them.
	Choices []string
}

// Describe reads a flag set. shared says which flags are config flags,
// which several commands take.
func Describe(name, help string, fs *flag.FlagSet, shared func(flagName string) bool) Command {
	c := Command{Name: name, Help: help}
	fs.VisitAll(func(f *flag.Flag) {
		value, usage := flag.UnquoteUsage(f)
		c.Flags = append(c.Flags, Flag{Name: f.Name, Value: value, Usage: usage,
			Default: nonZero(f.DefValue), Shared: shared != nil && shared(f.Name)})
	})
	return c
}

// nonZero hides the zero values the flag package prints as defaults.
func nonZero(def string) string {
	switch def {
	case "", "0", "false", "0s":
		return ""
	}
	return def
}

// Sorted returns the commands with the program itself first, then by name.
func Sorted(cmds []Command) []Command {
	out := append([]Command(nil), cmds...)
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Name == "") != (out[j].Name == "") {
			return out[i].Name == ""
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Summary is the first line of a command's help without the command's
// name: "leaguetui manager: run the league manager." gives "run the league
// manager".
func (c Command) Summary() string {
	line, _, _ := strings.Cut(strings.TrimSpace(c.Help), "\n")
	if _, rest, ok := strings.Cut(line, ": "); ok {
		line = rest
	}
	line, _, _ = strings.Cut(line, ";")
	return strings.TrimSuffix(strings.TrimSpace(line), ".")
}

// own are the flags of the command itself; shared are the config flags.
func (c Command) split() (own, shared []Flag) {
	for _, f := range c.Flags {
		if f.Shared {
			shared = append(shared, f)
		} else {
			own = append(own, f)
		}
	}
	return own, shared
}

// oneLine folds a usage written over several lines into one.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
