package process

import (
	"strings"
	"testing"
)

func TestPlaceholdersExpand(t *testing.T) {
	p := Placeholders{PlaceholderManager: "http://127.0.0.1:9/mcp", PlaceholderPort: "8123", PlaceholderName: "alice"}
	got, err := p.ExpandAll([]string{"python3", "alice.py", "--port={port}", "--manager", "{manager}", "{name}-{port}", "{{literal}}"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"python3", "alice.py", "--port=8123", "--manager", "http://127.0.0.1:9/mcp", "alice-8123", "{literal}"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestPlaceholdersUnknownIsNamed(t *testing.T) {
	p := Placeholders{PlaceholderPort: "1"}
	_, err := p.ExpandAll([]string{"x", "--url={manger}"})
	if err == nil || !strings.Contains(err.Error(), "{manger}") || !strings.Contains(err.Error(), "{port}") || !strings.Contains(err.Error(), "argument 2") {
		t.Fatalf("err = %v, want one naming {manger}, the argument and the known {port}", err)
	}
}
