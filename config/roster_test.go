package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func writeRoster(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "roster.json")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func noLLMCheck(l LLM) error {
	if l.Model == "" {
		return errors.New("needs a model")
	}
	return nil
}

func TestRosterValidateNamesEntryAndField(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"players":[{"name":"bob","strategy":"adaptive"},{"name":" alice","strategy":"random"}]}`, `players[1] " alice": name: begins or ends with a space`},
		{`{"players":[{"name":"bob","strategy":"adaptive"},{"name":"al ice","strategy":"random"}]}`, `players[1] "al ice": name: a built-in entry is one of leaguetui's own agents`},
		{`{"players":[{"name":"bob","strategy":"adaptive"},{"name":"al,ice","strategy":"random"}]}`, `players[1] "al,ice": name: holds`},
		{`{"players":[{"name":"bob","strategy":"adaptive"},{"name":"a/b","external":true}]}`, `players[1] "a/b": name: holds`},
		{`{"players":[{"name":"bob","strategy":"adaptive"},{"name":"a\u0007b","external":true}]}`, `name: holds a character that is not printable`},
		{`{"players":[{"name":"bob","strategy":"nope"},{"name":"x","strategy":"random"}]}`, `players[0] "bob": strategy: "nope" is not a strategy`},
		{`{"players":[{"name":"bob","strategy":"llm"},{"name":"x","strategy":"random"}]}`, `players[0] "bob": llm: missing`},
		{`{"players":[{"name":"bob","strategy":"llm","llm":{"provider":"openai"}},{"name":"x","strategy":"random"}]}`, `players[0] "bob": llm: needs a model`},
		{`{"players":[{"name":"bob","strategy":"random"},{"name":"BOB","external":true}]}`, `players[1] "BOB": name: is also`},
		{`{"players":[{"name":"bob","command":["x"],"limits":{"memory_mb":-1}},{"name":"x","strategy":"random"}]}`, `players[0] "bob": limits:`},
		{`{"players":[{"name":"bob","external":true,"command":["x"]},{"name":"x","strategy":"random"}]}`, `players[0] "bob": strategy: an entry is one of`},
		{`{"players":[{"name":"P02","strategy":"random"},{"name":"x","strategy":"random"}]}`, `players[0] "P02": name: has the form of a player id`},
		{`{"players":[{"name":"bob","command":["x","{prot}"]},{"name":"x","strategy":"random"}]}`, `players[0] "bob": command: bad {prot}`},
		{`{"players":[{"name":"bob","strategy":"random","join_code":false},{"name":"x","strategy":"random"}]}`, `players[0] "bob": join_code: goes with "external": true`},
	} {
		r, err := LoadRoster(writeRoster(t, c.body), "")
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		err = r.Validate("even_odd", noLLMCheck, func(e RosterEntry) error {
			for _, a := range e.Command {
				if strings.Contains(a, "{prot}") {
					return errors.New("bad {prot}")
				}
			}
			return nil
		})
		var re *RosterError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s:\n got %v\nwant one line with %q", c.body, err, c.want)
		}
	}
}

func TestRosterUnknownKeyIsRefused(t *testing.T) {
	_, err := LoadRoster(writeRoster(t, `{"players":[{"name":"bob","comand":["x"]}]}`), "")
	if err == nil || !strings.Contains(err.Error(), "comand") {
		t.Fatalf("err = %v, want one naming the unknown key", err)
	}
}

func TestRosterFromConfigFolder(t *testing.T) {
	dir := t.TempDir()
	if r, err := LoadRoster("", dir); r != nil || err != nil {
		t.Fatalf("no roster.json: got %v, %v", r, err)
	}
	body := `{"players":[{"name":"bob","strategy":"random"},{"name":"gpt","strategy":"llm","llm":{"provider":"openai","model":"m","base_url":"http://x","api_key_env":"K"}},{"name":"carol","external":true}]}`
	if err := os.WriteFile(filepath.Join(dir, RosterFile), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := LoadRoster("", dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate("even_odd", noLLMCheck, func(RosterEntry) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if kinds := []string{r.Players[0].Kind(), r.Players[1].Kind(), r.Players[2].Kind()}; strings.Join(kinds, ",") != "built-in,model,external" {
		t.Errorf("kinds %v", kinds)
	}
	if l := r.Players[1].LLM; l == nil || l.BaseURL != "http://x" || l.APIKeyEnv != "K" {
		t.Errorf("llm settings %+v", l)
	}
}

// TestRosterPageMatchesCode: docs/roster.md's example roster loads, with
// every field it shows, and its table of limits gives the defaults a
// confined program gets.
func TestRosterPageMatchesCode(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "docs", "roster.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	start := strings.Index(text, "```json\n")
	end := strings.Index(text[start+8:], "```")
	if start < 0 || end < 0 {
		t.Fatal("docs/roster.md has no JSON example")
	}
	r, err := LoadRoster(writeRoster(t, text[start+8:start+8+end]), "")
	if err != nil {
		t.Fatalf("the page's example roster: %v", err)
	}
	if alice := r.Players[3]; alice.Limits.DiskMB != 256 || !alice.Sandboxed() || alice.EffectiveLimits().Processes != DefaultProgramLimits.Processes {
		t.Errorf("the example's program entry: %+v", alice)
	}
	if careful := r.Players[5].LLM; careful == nil || careful.Harness != (Harness{Temperature: Number{true, 0}, Seed: Number{true, 7}, History: "3", Rethinks: 2}) {
		t.Errorf("the example's model entry with a harness: %+v", careful)
	}
	defaults := map[string]int{"memory_mb": DefaultProgramLimits.MemoryMB, "processes": DefaultProgramLimits.Processes,
		"file_mb": DefaultProgramLimits.FileMB, "disk_mb": DefaultProgramLimits.DiskMB, "cpu_seconds": DefaultProgramLimits.CPUSeconds}
	for key, want := range defaults {
		wantText := "none"
		if want > 0 {
			wantText = strconv.Itoa(want)
		}
		row := "| `" + key + "` | " + wantText + " |"
		if !strings.Contains(text, row) {
			t.Errorf("docs/roster.md's limits table lacks the row %q", row)
		}
	}
}

// TestRosterNamesAreDisplayNames: a roster name may be any display name
// registration takes, spaces inside included, as other implementations'
// players name themselves ("Player P05").
func TestRosterNamesAreDisplayNames(t *testing.T) {
	body := `{"players":[{"name":"bob","strategy":"random"},{"name":"Player P05","external":true},{"name":"Zoë the 3rd","command":["x"]}]}`
	r, err := LoadRoster(writeRoster(t, body), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate("even_odd", noLLMCheck, func(RosterEntry) error { return nil }); err != nil {
		t.Errorf("names with spaces are refused: %v", err)
	}
}

// A model player's price in the roster reaches its settings; a bad one is
// refused when the roster is read.
func TestRosterModelPrice(t *testing.T) {
	r, err := LoadRoster(writeRoster(t, `{"players":[{"name":"gpt","strategy":"llm","llm":{"model":"m",
		"price":{"input_per_million":0.5,"output_per_million":1.5}}},{"name":"x","strategy":"random"}]}`), "")
	if err != nil || r.Players[0].LLM == nil || r.Players[0].LLM.Price != (Price{0.5, 1.5, true}) {
		t.Fatalf("roster with a price: %+v, %v", r, err)
	}
	if _, err := LoadRoster(writeRoster(t, `{"players":[{"name":"gpt","strategy":"llm","llm":{"model":"m",
		"price":{"input_per_million":0.5}}},{"name":"x","strategy":"random"}]}`), ""); err == nil || !strings.Contains(err.Error(), "price") {
		t.Errorf("a price without its output price: %v", err)
	}
}

// TestRosterJoinCodeDefaultsToNeeded: an external entry needs its join
// code unless it says "join_code": false.
func TestRosterJoinCodeDefaultsToNeeded(t *testing.T) {
	r, err := LoadRoster(writeRoster(t, `{"players":[{"name":"carol","external":true},{"name":"dan","external":true,"join_code":true},`+
		`{"name":"Agent Alpha","external":true,"join_code":false}]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate("even_odd", noLLMCheck, func(RosterEntry) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, false} {
		if got := r.Players[i].NeedsJoinCode(); got != want {
			t.Errorf("%s: NeedsJoinCode %v, want %v", r.Players[i].Name, got, want)
		}
	}
}
