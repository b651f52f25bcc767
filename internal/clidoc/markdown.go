package clidoc

import (
	"bytes"
	"fmt"
	"strings"
)

// Markdown renders the reference of every command and flag. regenerate is
// the command that writes it again, named in its heading so that nobody
// edits it by hand.
func Markdown(program, regenerate string, cmds []Command) []byte {
	cmds = Sorted(cmds)
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Command line\n\n")
	fmt.Fprintf(&b, "<!-- Generated from the flag definitions by `%s`: do not edit. -->\n\n", regenerate)
	fmt.Fprintf(&b, "Every command and flag of `%s`, as its `--help` prints them. A flag may be written\n", program)
	fmt.Fprintf(&b, "with one dash or two; a boolean takes its value after `=` (`--no-ui=false`). A bad\n")
	fmt.Fprintf(&b, "flag or value exits with status 2 and one line on stderr naming it.\n\n")
	fmt.Fprintf(&b, "| command | what it does |\n|---|---|\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", title(program, c), anchor(title(program, c)), cell(c.Summary()))
	}
	var shared []Flag
	for _, c := range cmds {
		own, common := c.split()
		if len(common) > len(shared) {
			shared = common
		}
		fmt.Fprintf(&b, "\n## %s\n\n", title(program, c))
		fmt.Fprintf(&b, "```text\n%s\n```\n\n", helpText(c.Help))
		if len(own) > 0 {
			table(&b, own)
		}
		if len(common) > 0 {
			fmt.Fprintf(&b, "\nIt also takes the [config flags](#config-flags) it reads: %s.\n", flagNames(common))
		}
	}
	if len(shared) > 0 {
		fmt.Fprintf(&b, "\n## Config flags\n\n")
		fmt.Fprintf(&b, "These set the league's configuration over the config folder's files and the\n")
		fmt.Fprintf(&b, "`LEAGUETUI_*` environment variables (see [Configuration](configuration.md)).\n")
		fmt.Fprintf(&b, "Each command takes those it reads, as listed under it.\n\n")
		table(&b, shared)
	}
	return b.Bytes()
}

// flagNames lists flags as typed: `--config`, `--host`.
func flagNames(flags []Flag) string {
	names := make([]string, len(flags))
	for i, f := range flags {
		names[i] = "`--" + f.Name + "`"
	}
	return strings.Join(names, ", ")
}

// helpText is a command's help without the "Flags:" heading that --help
// prints above the flags: the reference's table follows instead.
func helpText(help string) string {
	help = strings.TrimRight(help, "\n ")
	return strings.TrimRight(strings.TrimSuffix(help, "Flags:"), "\n ")
}

func table(b *bytes.Buffer, flags []Flag) {
	fmt.Fprintf(b, "| flag | value | default | what it does |\n|---|---|---|---|\n")
	for _, f := range flags {
		value := f.Value
		switch {
		case value == "":
			value = "true/false"
		case len(f.Choices) > 0:
			value += ": `" + strings.Join(f.Choices, "`, `") + "`"
		}
		def := ""
		if f.Default != "" {
			def = "`" + f.Default + "`"
		}
		fmt.Fprintf(b, "| `--%s` | %s | %s | %s |\n", f.Name, value, def, cell(oneLine(f.Usage)))
	}
}

// title is the command as typed: "leaguetui manager".
func title(program string, c Command) string {
	return strings.TrimSpace(program + " " + c.Name)
}

// anchor is the link target a Markdown renderer gives a heading.
func anchor(heading string) string {
	return strings.ReplaceAll(strings.ToLower(heading), " ", "-")
}

// cell escapes text for a table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
