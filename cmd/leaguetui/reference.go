package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/clidoc"
)

// docs/cli.md is written from the same flag definitions leaguetui parses;
// TestCLIReferenceIsCurrent fails when it drifts from them.
//go:generate go test -run TestCLIReferenceIsCurrent . -update

const program = "leaguetui"

// regenerate is the command that writes docs/cli.md again.
const regenerate = "go generate ./cmd/leaguetui"

// flagSetRecorder is the stdout a command runs with when leaguetui
// describes its command line: newCommandFlagSet hands it the flag set it
// makes, and the command, run with --help, defines its flags on it and
// stops before doing anything.
type flagSetRecorder struct {
	io.Writer
	sets []recordedFlagSet
}

type recordedFlagSet struct {
	fs   *flag.FlagSet
	help string
}

func (r *flagSetRecorder) record(fs *flag.FlagSet, help string) {
	r.sets = append(r.sets, recordedFlagSet{fs, help})
}

// commandLine describes leaguetui's command line: the league itself and
// every command of commandTable, each as its own code defines its flags.
// So a new command or flag is in docs/cli.md and the completions without
// anyone listing it again.
func commandLine() ([]clidoc.Command, error) {
	names := append([]string{""}, slices.Sorted(maps.Keys(commandTable(io.Discard, io.Discard)))...)
	cmds := make([]clidoc.Command, 0, len(names))
	for _, name := range names {
		args := []string{"--help"}
		if name != "" {
			args = []string{name, "--help"}
		}
		recorder := &flagSetRecorder{Writer: io.Discard}
		err := run(context.Background(), nil, args, recorder, io.Discard)
		if !errors.Is(err, flag.ErrHelp) || len(recorder.sets) != 1 {
			return nil, fmt.Errorf("%s %s --help made %d flag sets and returned %v; want one flag set and the help",
				program, name, len(recorder.sets), err)
		}
		reads := config.GroupFlags(config.CommandFlags[name]...) // none for a command that reads no config
		c := clidoc.Describe(name, recorder.sets[0].help, recorder.sets[0].fs, func(flag string) bool {
			return slices.Contains(reads, flag)
		})
		if name == "completion" {
			c.Args = clidoc.Shells
		}
		for i, f := range c.Flags {
			c.Flags[i].Choices = flagChoices(name, f.Name)
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// flagChoices are the values a flag takes when they are a fixed set, from
// the code that reads them, for the completions to offer.
func flagChoices(command, name string) []string {
	switch name {
	case "game":
		return engine.GameTypes()
	case "format":
		var formats []string
		for _, f := range engine.Formats() {
			formats = append(formats, string(f))
		}
		return formats
	case "llm-provider":
		return llm.Providers
	case "llm-fallback":
		return []string{"random"}
	case "strategy":
		if command == "player" {
			return append(engine.StrategyNames(), llm.StrategyName)
		}
	}
	return nil
}

// cliReference is docs/cli.md.
func cliReference() ([]byte, error) {
	cmds, err := commandLine()
	if err != nil {
		return nil, err
	}
	return clidoc.Markdown(program, regenerate, cmds), nil
}

const completionUsage = `leaguetui completion: print the shell completion script for bash, zsh or fish.

Usage:
  leaguetui completion bash|zsh|fish

Load it in the running shell:
  bash:  source <(leaguetui completion bash)
  zsh:   source <(leaguetui completion zsh)
  fish:  leaguetui completion fish | source

or install it where the shell looks for completions, e.g.
  leaguetui completion bash > ~/.local/share/bash-completion/completions/leaguetui
  leaguetui completion zsh > "${fpath[1]}/_leaguetui"
  leaguetui completion fish > ~/.config/fish/completions/leaguetui.fish

Flags:
`

// runCompletion prints the completion script of a shell, written from the
// same description of the command line as docs/cli.md.
func runCompletion(args []string, stdout io.Writer) error {
	fs := newCommandFlagSet("leaguetui completion", completionUsage, stdout)
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return &usageError{fmt.Sprintf("completion needs one shell: %s", shellList())}
	}
	if !slices.Contains(clidoc.Shells, fs.Arg(0)) {
		return &usageError{fmt.Sprintf("completion %q: want %s", fs.Arg(0), shellList())}
	}
	cmds, err := commandLine()
	if err != nil {
		return err
	}
	script, err := clidoc.Completion(fs.Arg(0), program, cmds)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, script)
	return err
}

func shellList() string {
	last := len(clidoc.Shells) - 1
	return strings.Join(clidoc.Shells[:last], ", ") + " or " + clidoc.Shells[last]
}
