package clidoc

import (
	"flag"
	"strings"
	"testing"
)

// twoCommands is a program with a shared --config, a root flag and a
// subcommand's own flag.
func twoCommands() []Command {
	shared := func(name string) bool { return name == "config" }
	root := flag.NewFlagSet("prog", flag.ContinueOnError)
	root.Bool("no-ui", false, "run headless")
	root.String("config", "", "the config `folder`")
	serve := flag.NewFlagSet("prog serve", flag.ContinueOnError)
	serve.Int("port", 8000, "port to listen on | or 0")
	serve.String("config", "", "the config `folder`")
	return []Command{
		Describe("serve", "prog serve: serve it.\n\nFlags:\n", serve, shared),
		Describe("", "prog does things.\n", root, shared),
	}
}

func TestDescribe(t *testing.T) {
	cmds := Sorted(twoCommands())
	if cmds[0].Name != "" || cmds[1].Name != "serve" {
		t.Fatalf("order %q, %q: want the program first", cmds[0].Name, cmds[1].Name)
	}
	port := cmds[1].Flags[1]
	if port.Name != "port" || port.Default != "8000" || port.Value != "int" || port.Shared {
		t.Errorf("--port described as %+v", port)
	}
	config := cmds[1].Flags[0]
	if config.Value != "folder" || config.Default != "" || !config.Shared || config.Usage != "the config folder" {
		t.Errorf("--config described as %+v", config)
	}
	if got := cmds[1].Summary(); got != "serve it" {
		t.Errorf("summary %q", got)
	}
}

// TestMarkdownListsSharedFlagsOnce: a command's table holds its own flags;
// the shared ones are one table of their own; a | in a usage is escaped.
func TestMarkdownListsSharedFlagsOnce(t *testing.T) {
	md := string(Markdown("prog", "go generate", twoCommands()))
	if strings.Count(md, "| `--config` |") != 1 || !strings.Contains(md, "## Config flags") {
		t.Errorf("--config should be listed once, under the shared flags:\n%s", md)
	}
	if !strings.Contains(md, `port to listen on \| or 0`) || !strings.Contains(md, "[`prog serve`](#prog-serve)") {
		t.Errorf("the reference lacks the escaped usage or the command's link:\n%s", md)
	}
	if !strings.Contains(md, "`go generate`") {
		t.Errorf("the reference does not say how it is written:\n%s", md)
	}
}

func TestCompletion(t *testing.T) {
	if _, err := Completion("tcsh", "prog", twoCommands()); err == nil || !strings.Contains(err.Error(), "bash, zsh, fish") {
		t.Errorf("tcsh: %v; want an error naming the shells", err)
	}
	for shell, want := range map[string][]string{
		"bash": {"complete -F _prog prog", "serve)", "--config --port", "compgen -d"},
		"zsh":  {"#compdef prog", "'serve:serve it'", "'--port[port to listen on | or 0]", ":folder:_files -/"},
		"fish": {"complete -c prog -n '__fish_seen_subcommand_from serve' -l port -x", "-a serve -d 'serve it'"},
	} {
		script, err := Completion(shell, "prog", twoCommands())
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(script, w) {
				t.Errorf("%s script lacks %q:\n%s", shell, w, script)
			}
		}
	}
}
