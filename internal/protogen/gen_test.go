package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// docs/protocol.md is what the code generates: a change to the message
// table, a message's Go type, an error code or a timeout that is not in
// the document fails here until it is regenerated.
func TestProtocolReferenceMatchesTheCode(t *testing.T) {
	want := Generate()
	got, err := os.ReadFile(defaultPath())
	if err != nil {
		t.Fatalf("%v: run `%s` to write it", err, Regenerate)
	}
	if bytes.Equal(got, want) {
		return
	}
	gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(gotLines), len(wantLines)); i++ {
		g, w := line(gotLines, i), line(wantLines, i)
		if g != w {
			t.Fatalf("docs/protocol.md and the code disagree from line %d:\n  the file: %s\n  the code: %s\nrun `%s` to regenerate it",
				i+1, g, w, Regenerate)
		}
	}
}

func line(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end of file)"
}

// Generate is deterministic: the same bytes every time.
func TestGenerateIsDeterministic(t *testing.T) {
	first := Generate()
	for range 3 {
		if !bytes.Equal(first, Generate()) {
			t.Fatal("two runs of Generate differ")
		}
	}
}

// Every message of the table has its section, under the anchor the
// checker's failures link to.
func TestEveryMessageHasASection(t *testing.T) {
	doc := string(Generate())
	for _, heading := range []string{"### GAME_INVITATION", "### CHOOSE_PARITY_CALL", "### GAME_MOVE_CALL", "### GAME_OVER",
		"### LEAGUE_REGISTER_REQUEST", "### START_MATCH", "## Envelope", "## JSON-RPC framing", "## Timeouts",
		"## Error codes", "## Dialects accepted"} {
		if !strings.Contains(doc, "\n"+heading+"\n") {
			t.Errorf("no %q section", heading)
		}
	}
}
