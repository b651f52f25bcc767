package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/store"
)

// TestStartSpecDocumented checks docs/data-folder.md's account of
// league-start.json against the code: the flags it says are refused when
// they would make another league, and those it says are not remembered,
// are the lists startspec.go holds; its example is a file LoadStartSpec
// reads, of flags leaguetui takes.
func TestStartSpecDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/data-folder.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "## How the league was started")
	if !ok {
		t.Fatal("docs/data-folder.md has no section on how the league was started")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	refusedText, _, _ := strings.Cut(section[strings.Index(section, "would make\nanother league"):], "is\nrefused")
	if got := docFlags(refusedText); !sameSet(got, leagueShaping) {
		t.Errorf("docs/data-folder.md says these flags are refused: %v; the code refuses %v", got, leagueShaping)
	}
	notText, _, _ := strings.Cut(section[strings.Index(section, "but those\nthat concern one run only"):], "admin token")
	want := slices.DeleteFunc(slices.Clone(notRemembered), func(f string) bool { return f == "admin-token" || f == "version" })
	if got := docFlags(notText); !sameSet(got, want) {
		t.Errorf("docs/data-folder.md says these flags are not remembered: %v; the code leaves out %v", got, want)
	}

	example := regexp.MustCompile("(?s)```json\n(.*?)```").FindStringSubmatch(section)
	if example == nil {
		t.Fatal("docs/data-folder.md shows no league-start.json")
	}
	dir := t.TempDir()
	if err := os.WriteFile(store.StartSpecFile(dir), []byte(example[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, ok, err := store.LoadStartSpec(dir)
	if err != nil || !ok || len(spec.Args) == 0 {
		t.Fatalf("the example does not read as a league start file: %v", err)
	}
	fs, _ := newFlagSet("leaguetui", "", os.Stdout)
	for _, name := range []string{"players", "seed", "free-ports"} {
		fs.String(name, "", "")
	}
	if err := fs.Parse(spec.Args); err != nil {
		t.Errorf("the example's flags are not leaguetui's: %v", err)
	}
}

// docFlags are the `--flag` names a piece of text names.
func docFlags(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile("`--([a-z-]+)`").FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	return slices.Equal(a, b)
}
