package config

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The harness flags set every setting, and Args writes a harness back as
// flags that give the same one.
func TestHarnessFlagsRoundTrip(t *testing.T) {
	f := newFlags(t, "--llm-temperature", "0.7", "--llm-top-p", "0.9", "--llm-seed", "42", "--llm-reasoning-effort", "high",
		"--llm-max-output-tokens", "512", "--llm-moves", "hidden", "--llm-history", "3", "--llm-rethinks", "2",
		"--llm-system-prompt-file", "sys.txt")
	cfg, err := f.ResolveWith(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	h := cfg.Player.LLM.Harness
	want := Harness{Temperature: Number{true, 0.7}, TopP: Number{true, 0.9}, Seed: Number{true, 42}, ReasoningEffort: "high",
		MaxOutputTokens: 512, Moves: MovesHidden, History: "3", Rethinks: 2, SystemPromptFile: absPath("sys.txt")}
	if h != want {
		t.Fatalf("harness %+v, want %+v", h, want)
	}
	again, err := newFlags(t, h.Args()...).ResolveWith(env(nil))
	if err != nil || again.Player.LLM.Harness != h {
		t.Errorf("from its Args %v: %+v, %v", h.Args(), again.Player.LLM.Harness, err)
	}
	if none, err := newFlags(t, Harness{}.Args()...).ResolveWith(env(nil)); err != nil || none.Player.LLM.Harness != (Harness{}) {
		t.Errorf("the built-in harness from its Args: %+v, %v", none.Player.LLM.Harness, err)
	}
	if byEnv, err := newFlags(t).ResolveWith(env(map[string]string{"LEAGUETUI_LLM_RETHINKS": "4"})); err != nil || byEnv.Player.LLM.Harness.Rethinks != 4 {
		t.Errorf("LEAGUETUI_LLM_RETHINKS: %+v, %v", byEnv.Player.LLM.Harness, err)
	}
}

// Each bad value is refused naming the flag and what it wants.
func TestHarnessFlagsRefuseBadValues(t *testing.T) {
	for _, c := range []struct{ flag, value, want string }{
		{"llm-temperature", "3", "from 0 to 2"},
		{"llm-temperature", "warm", "from 0 to 2"},
		{"llm-top-p", "0", "more than 0 to 1"},
		{"llm-seed", "1.5", "whole number"},
		{"llm-reasoning-effort", "extreme", "want one of none, minimal"},
		{"llm-thinking-budget", "100", "at least 1024"},
		{"llm-max-output-tokens", "-1", "from 0 to"},
		{"llm-moves", "some", "listed or hidden"},
		{"llm-history", "recent", "all, none or a count"},
		{"llm-rethinks", "11", "from 0 to 10"},
	} {
		_, err := newFlags(t, "--"+c.flag, c.value).ResolveWith(env(nil))
		if err == nil || !strings.Contains(err.Error(), "--"+c.flag) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--%s %s: %v, want %q", c.flag, c.value, err, c.want)
		}
	}
}

// A roster entry's llm takes the harness keys, numbers as numbers or
// strings, and names a bad one by its key.
func TestRosterHarness(t *testing.T) {
	r, err := LoadRoster(writeRoster(t, `{"players":[{"name":"cold","strategy":"llm","llm":{"model":"m","temperature":0,"rethinks":2,
		"history":"none","seed":"9"}},{"name":"hot","strategy":"llm","llm":{"model":"m","temperature":1.2,"moves":"hidden","history":2}}]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	cold, hot := r.Players[0].LLM.Harness, r.Players[1].LLM.Harness
	if cold != (Harness{Temperature: Number{true, 0}, Rethinks: 2, History: HistoryNone, Seed: Number{true, 9}}) ||
		hot != (Harness{Temperature: Number{true, 1.2}, Moves: MovesHidden, History: "2"}) {
		t.Errorf("cold %+v, hot %+v", cold, hot)
	}
	_, err = LoadRoster(writeRoster(t, `{"players":[{"name":"x","strategy":"llm","llm":{"model":"m","rethinks":-1}}]}`), "")
	if err == nil || !strings.Contains(err.Error(), "llm.rethinks") {
		t.Errorf("a negative rethinks: %v", err)
	}
}

// defaults/player.json's settings.llm takes them too.
func TestPlayerFileHarness(t *testing.T) {
	dir := writeFolder(t, map[string]string{"defaults/player.json": `{"settings":{"llm":{"top_p":0.5,"rethinks":1,"moves":"listed"}}}`})
	cfg, err := LoadLeague(dir, "")
	if err != nil || cfg.Player.LLM.Harness != (Harness{TopP: Number{true, 0.5}, Rethinks: 1}) {
		t.Fatalf("%+v, %v", cfg.Player.LLM.Harness, err)
	}
	bad := writeFolder(t, map[string]string{"defaults/player.json": `{"settings":{"llm":{"top_p":2}}}`})
	if _, err := LoadLeague(bad, ""); err == nil || !strings.Contains(err.Error(), "settings.llm.top_p") {
		t.Errorf("top_p 2: %v", err)
	}
}

// Every harness setting has its JSON key, and the keys are the
// settings'.
func TestHarnessKeysAreTheSettings(t *testing.T) {
	var keys []string
	for k := range typeKeys(reflect.TypeFor[harnessJSON]()) {
		keys = append(keys, k)
	}
	var settings []string
	for _, s := range harnessSettings {
		settings = append(settings, s.key)
	}
	slices.Sort(keys)
	slices.Sort(settings)
	if !slices.Equal(keys, settings) {
		t.Errorf("harnessJSON's keys %v, the settings' %v", keys, settings)
	}
}

// TestHarnessTableIsCurrent: docs/games.md's harness table is the one
// HarnessTable writes, and docs/roster.md and docs/configuration.md name
// every key.
func TestHarnessTableIsCurrent(t *testing.T) {
	raw, err := os.ReadFile("../docs/games.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- harness: generated from config.HarnessTable; TestHarnessTableIsCurrent -->\n", "<!-- /harness -->"
	doc := string(raw)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("docs/games.md has no %q ... %q", strings.TrimSpace(begin), end)
	}
	if got := doc[i+len(begin) : j]; got != HarnessTable() {
		t.Errorf("docs/games.md's harness table is not harnessSettings'; put this between the markers:\n%s", HarnessTable())
	}
	roster, _ := os.ReadFile("../docs/roster.md")
	conf, _ := os.ReadFile("../docs/configuration.md")
	for _, s := range harnessSettings {
		if !strings.Contains(string(roster), "`"+s.key+"`") {
			t.Errorf("docs/roster.md does not name the llm key %s", s.key)
		}
		if !strings.Contains(string(conf), "`settings.llm."+s.key+"`") {
			t.Errorf("docs/configuration.md does not name settings.llm.%s", s.key)
		}
	}
}
