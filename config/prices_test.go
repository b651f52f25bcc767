package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The built-in price table in docs/configuration.md is DefaultPrices, row
// for row.
func TestPriceTableInTheDocsIsTheDefault(t *testing.T) {
	page, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(page), "\n") {
		if strings.HasPrefix(line, "| `") && strings.Count(line, "|") == 4 && strings.Contains(line, "/") {
			rows = append(rows, line)
		}
	}
	var want []string
	table := DefaultPrices()
	for _, key := range slices.Sorted(maps.Keys(table)) {
		p := table[key]
		want = append(want, fmt.Sprintf("| `%s` | %.2f | %.2f |", key, p.InputPerMillion, p.OutputPerMillion))
	}
	if !slices.Equal(rows, want) {
		t.Errorf("docs/configuration.md's price table:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// prices.json adds to the built-in table and overrides it; a player's
// own price beats both; a model in neither has no price.
func TestModelPrice(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, PricesFile), `{"prices": {"openai/gpt-4o-mini": {"input_per_million": 1, "output_per_million": 2},
		"openai/local": {"input_per_million": 0, "output_per_million": 0}}}`)
	cases := []struct {
		dir  string
		llm  LLM
		want Price
	}{
		{"", LLM{Provider: "openai", Model: "gpt-4o-mini"}, DefaultPrices()["openai/gpt-4o-mini"]},
		{"", LLM{Model: "gpt-4o-mini"}, DefaultPrices()["openai/gpt-4o-mini"]}, // openai is the default provider
		{dir, LLM{Provider: "openai", Model: "gpt-4o-mini"}, Price{1, 2, true}},
		{dir, LLM{Provider: "openai", Model: "local"}, Price{0, 0, true}},
		{dir, LLM{Provider: "anthropic", Model: "claude-3-5-haiku-latest"}, DefaultPrices()["anthropic/claude-3-5-haiku-latest"]},
		{dir, LLM{Provider: "openai", Model: "gpt-4o-mini", Price: Price{5, 6, true}}, Price{5, 6, true}},
		{dir, LLM{Provider: "openai", Model: "unknown"}, Price{}},
	}
	for _, c := range cases {
		got, err := ModelPrice(c.dir, c.llm)
		if err != nil || got != c.want {
			t.Errorf("ModelPrice(%q, %s/%s) = %+v, %v; want %+v", c.dir, c.llm.Provider, c.llm.Model, got, err, c.want)
		}
	}
}

// A broken prices.json stops Load with the file and the key named.
func TestBadPricesFile(t *testing.T) {
	for body, field := range map[string]string{
		`{"prices": {"gpt-4o-mini": {"input_per_million": 1, "output_per_million": 2}}}`: "prices.gpt-4o-mini",
		`{"prices": {"openai/x": {"input_per_million": -1, "output_per_million": 2}}}`:   "prices.openai/x",
		`{"prices": {"openai/x": {"input_per_million": 1}}}`:                             "prices.openai/x",
		`{"prices": {"openai/x": {"input_per_million": "1", "output_per_million": 2}}}`:  "",
		`{"price": {}}`: "",
	} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, PricesFile), body)
		_, err := Load(dir)
		var fe *FileError
		if !errors.As(err, &fe) || !strings.HasSuffix(fe.Path, PricesFile) || (field != "" && fe.Field != field) {
			t.Errorf("%s: %v, want a FileError of %s at %q", body, err, PricesFile, field)
		}
	}
}

// --llm-price takes "IN,OUT"; "" leaves the price to the table.
func TestParsePrice(t *testing.T) {
	for raw, want := range map[string]Price{"0.15,0.60": {0.15, 0.6, true}, " 3 , 15 ": {3, 15, true}, "": {}} {
		if got, err := parsePrice(raw); err != nil || got != want {
			t.Errorf("parsePrice(%q) = %+v, %v; want %+v", raw, got, err, want)
		}
		if got, _ := parsePrice(want.String()); got != want {
			t.Errorf("%+v does not read back from %q", want, want.String())
		}
	}
	for _, raw := range []string{"1", "a,2", "1,b", "-1,2"} {
		if _, err := parsePrice(raw); err == nil {
			t.Errorf("parsePrice(%q) took it", raw)
		}
	}
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
