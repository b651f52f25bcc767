package clidoc

import (
	"fmt"
	"strings"
)

// Shells are the shells Completion writes a script for.
var Shells = []string{"bash", "zsh", "fish"}

// Completion writes the completion script of program for shell: the
// commands, each command's flags, folders and files for flags whose value
// is a folder or a file, and a command's fixed words.
func Completion(shell, program string, cmds []Command) (string, error) {
	cmds = Sorted(cmds)
	switch shell {
	case "bash":
		return bash(program, cmds), nil
	case "zsh":
		return zsh(program, cmds), nil
	case "fish":
		return fish(program, cmds), nil
	}
	return "", fmt.Errorf("no completion for shell %q (want %s)", shell, strings.Join(Shells, ", "))
}

// valueKind says how a flag's value completes: a folder, a file, or any text.
func valueKind(f Flag) string {
	switch {
	case f.Value == "folder":
		return "folder"
	case f.Value == "file":
		return "file"
	}
	return ""
}

// function is the shell function's name: "_leaguetui".
func function(program string) string {
	return "_" + strings.NewReplacer("-", "_", ".", "_").Replace(program)
}

// choiceFlags are the flags with a fixed set of values, once by name.
func choiceFlags(cmds []Command) []Flag {
	var out []Flag
	seen := map[string]bool{}
	for _, c := range cmds {
		for _, f := range c.Flags {
			if len(f.Choices) > 0 && !seen[f.Name] {
				seen[f.Name] = true
				out = append(out, f)
			}
		}
	}
	return out
}

func subcommands(cmds []Command) []string {
	var names []string
	for _, c := range cmds {
		if c.Name != "" {
			names = append(names, c.Name)
		}
	}
	return names
}

func bash(program string, cmds []Command) string {
	var b strings.Builder
	fn := function(program)
	fmt.Fprintf(&b, "# bash completion for %s; load with: source <(%s completion bash)\n", program, program)
	fmt.Fprintf(&b, "%s() {\n", fn)
	fmt.Fprintf(&b, "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=\n")
	fmt.Fprintf(&b, "  # a command comes first: %s COMMAND [flags]\n", program)
	fmt.Fprintf(&b, "  if ((COMP_CWORD > 1)); then\n")
	fmt.Fprintf(&b, "    case ${COMP_WORDS[1]} in %s) cmd=${COMP_WORDS[1]} ;; esac\n", strings.Join(subcommands(cmds), "|"))
	fmt.Fprintf(&b, "  fi\n")
	fmt.Fprintf(&b, "  case $prev in\n")
	for _, f := range choiceFlags(cmds) {
		fmt.Fprintf(&b, "    --%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", f.Name, strings.Join(f.Choices, " "))
	}
	fmt.Fprintf(&b, "  esac\n")
	fmt.Fprintf(&b, "  local flags= files= folders= words=\n")
	fmt.Fprintf(&b, "  case $cmd in\n")
	for _, c := range cmds {
		var flags, files, folders []string
		for _, f := range c.Flags {
			flags = append(flags, "--"+f.Name)
			switch valueKind(f) {
			case "file":
				files = append(files, "--"+f.Name)
			case "folder":
				folders = append(folders, "--"+f.Name)
			}
		}
		words := c.Args
		if c.Name == "" {
			words = subcommands(cmds)
		}
		label := c.Name
		if label == "" {
			label = `""`
		}
		fmt.Fprintf(&b, "    %s)\n", label)
		fmt.Fprintf(&b, "      flags=%q\n      files=%q\n      folders=%q\n      words=%q ;;\n",
			strings.Join(flags, " "), " "+strings.Join(files, " ")+" ", " "+strings.Join(folders, " ")+" ", strings.Join(words, " "))
	}
	fmt.Fprintf(&b, "  esac\n")
	fmt.Fprintf(&b, "  if [[ $folders == *\" $prev \"* ]]; then COMPREPLY=($(compgen -d -- \"$cur\")); return; fi\n")
	fmt.Fprintf(&b, "  if [[ $files == *\" $prev \"* ]]; then COMPREPLY=($(compgen -f -- \"$cur\")); return; fi\n")
	fmt.Fprintf(&b, "  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\")); return; fi\n")
	fmt.Fprintf(&b, "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n")
	fmt.Fprintf(&b, "}\ncomplete -F %s %s\n", fn, program)
	return b.String()
}

// described is a flag's usage cut to its first clause, without the
// characters zsh's and fish's descriptions give a meaning to.
func described(usage string) string {
	usage = oneLine(usage)
	for _, stop := range []string{"; ", " (", ": "} {
		usage, _, _ = strings.Cut(usage, stop)
	}
	usage = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:'"\$`+"`", r) {
			return -1
		}
		return r
	}, usage)
	if r := []rune(usage); len(r) > 70 {
		usage = string(r[:69]) + "…"
	}
	return usage
}

func zsh(program string, cmds []Command) string {
	var b strings.Builder
	fn := function(program)
	fmt.Fprintf(&b, "#compdef %s\n# zsh completion for %s; load with: source <(%s completion zsh)\n", program, program, program)
	fmt.Fprintf(&b, "%s() {\n", fn)
	fmt.Fprintf(&b, "  local -a commands\n  commands=(\n")
	for _, c := range cmds {
		if c.Name != "" {
			fmt.Fprintf(&b, "    '%s:%s'\n", c.Name, described(c.Summary()))
		}
	}
	fmt.Fprintf(&b, "  )\n")
	fmt.Fprintf(&b, "  local cmd=\n  if (( CURRENT > 2 )) && (( ${commands[(I)$words[2]:*]} )); then cmd=$words[2]; fi\n")
	fmt.Fprintf(&b, "  case $cmd in\n")
	for _, c := range cmds {
		label := c.Name
		if label == "" {
			label = `""`
		}
		fmt.Fprintf(&b, "    %s)\n      _arguments", label)
		if c.Name != "" {
			fmt.Fprintf(&b, " -s -S '1: :(%s)'", c.Name)
		}
		for _, f := range c.Flags {
			fmt.Fprintf(&b, " \\\n        '--%s[%s]%s'", f.Name, described(f.Usage), zshValue(f))
		}
		switch {
		case c.Name == "":
			fmt.Fprintf(&b, " \\\n        '1: :{_describe command commands}'")
		case len(c.Args) > 0:
			fmt.Fprintf(&b, " \\\n        '2: :(%s)'", strings.Join(c.Args, " "))
		}
		fmt.Fprintf(&b, " ;;\n")
	}
	fmt.Fprintf(&b, "  esac\n}\n")
	fmt.Fprintf(&b, "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then %s \"$@\"; else compdef %s %s; fi\n", fn, fn, program)
	return b.String()
}

func zshValue(f Flag) string {
	switch {
	case f.Value == "":
		return ""
	case len(f.Choices) > 0:
		return ":" + described(f.Value) + ":(" + strings.Join(f.Choices, " ") + ")"
	case valueKind(f) == "folder":
		return ":folder:_files -/"
	case valueKind(f) == "file":
		return ":file:_files"
	}
	return ":" + described(f.Value) + ": "
}

func fish(program string, cmds []Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# fish completion for %s; load with: %s completion fish | source\n", program, program)
	names := strings.Join(subcommands(cmds), " ")
	fmt.Fprintf(&b, "complete -c %s -f\n", program)
	for _, c := range cmds {
		condition := "__fish_seen_subcommand_from " + c.Name
		if c.Name == "" {
			condition = "not __fish_seen_subcommand_from " + names
		} else {
			fmt.Fprintf(&b, "complete -c %s -n 'not __fish_seen_subcommand_from %s' -a %s -d '%s'\n",
				program, names, c.Name, described(c.Summary()))
		}
		for _, f := range c.Flags {
			value := ""
			switch {
			case valueKind(f) == "folder":
				value = " -x -a '(__fish_complete_directories)'"
			case valueKind(f) == "file":
				value = " -r -F"
			case len(f.Choices) > 0:
				value = " -x -a '" + strings.Join(f.Choices, " ") + "'"
			case f.Value != "":
				value = " -x" // a value, not a file
			}
			fmt.Fprintf(&b, "complete -c %s -n '%s' -l %s%s -d '%s'\n", program, condition, f.Name, value, described(f.Usage))
		}
		if len(c.Args) > 0 {
			fmt.Fprintf(&b, "complete -c %s -n '%s' -a '%s'\n", program, condition, strings.Join(c.Args, " "))
		}
	}
	return b.String()
}
