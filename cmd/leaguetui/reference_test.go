package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
