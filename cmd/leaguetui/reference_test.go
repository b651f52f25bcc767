package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/config"
)

var update = flag.Bool("update", false, "write docs/cli.md from the flag definitions")

// TestCLIReferenceIsCurrent fails when docs/cli.md is not what the flag
// definitions make of it; go generate ./cmd/leaguetui writes it again.
func TestCLIReferenceIsCurrent(t *testing.T) {
	want, err := cliReference()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "docs", "cli.md")
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v; write it with: %s", err, regenerate)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/cli.md differs from the flag definitions; write it again with: %s", regenerate)
	}
}

// TestCommandLineHasEveryCommand: the description behind docs/cli.md and
// the completions holds each command of commandTable with its own flags
// and the config flags, and a flag added to a command is in it.
func TestCommandLineHasEveryCommand(t *testing.T) {
	cmds, err := commandLine()
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string]map[string]bool{}
	for _, c := range cmds {
		flags[c.Name] = map[string]bool{}
		for _, f := range c.Flags {
			flags[c.Name][f.Name] = true
		}
	}
	for _, want := range []struct{ command, flag string }{
		{"", "no-ui"}, {"", "move-timeout"}, {"manager", "hold"}, {"referee", "max-concurrent"},
		{"player", "strategy"}, {"player", "game"}, {"bench", "raw-duration"}, {"pages", "port"},
	} {
		if !flags[want.command][want.flag] {
			t.Errorf("%q has no --%s in the description of the command line", want.command, want.flag)
		}
	}
	if _, ok := flags["completion"]; !ok || flags["completion"]["game"] {
		t.Errorf("completion is missing or takes the config flags: %v", flags["completion"])
	}
	for _, c := range cmds[1:] {
		if !strings.Contains(cmds[0].Help, "leaguetui "+c.Name+" ") {
			t.Errorf("leaguetui --help does not list the command %s", c.Name)
		}
	}
	if len(cmds) != len(commandTable(nil, nil))+1 {
		t.Errorf("%d commands described, want the league and the %d of commandTable", len(cmds), len(commandTable(nil, nil)))
	}
}

// TestHelpListsOnlyTheFlagsACommandReads: each command's --help lists its
// own flags and, of the config flags, exactly those of the groups
// config.CommandFlags says it reads; a command that only attaches or
// probes lists no league flag (formats, challengers, timeouts).
func TestHelpListsOnlyTheFlagsACommandReads(t *testing.T) {
	cmds, err := commandLine()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		var shared []string // told from a command's own flags by the variable their usage names
		for _, f := range c.Flags {
			if env := config.EnvOf(f.Name); env != "" && strings.HasSuffix(f.Usage, "; env "+env) {
				shared = append(shared, f.Name)
			}
		}
		want := config.GroupFlags(config.CommandFlags[c.Name]...)
		slices.Sort(want)
		if !slices.Equal(shared, want) {
			t.Errorf("leaguetui %s --help lists the config flags %q, want %q", c.Name, shared, want)
		}
	}
	for _, c := range cmds {
		if c.Name != "web" && c.Name != "probe" {
			continue
		}
		for _, f := range c.Flags {
			if slices.Contains([]string{"format", "challengers", "move-timeout", "strategies", "host"}, f.Name) {
				t.Errorf("leaguetui %s --help lists --%s, which it does not read", c.Name, f.Name)
			}
		}
	}
}
