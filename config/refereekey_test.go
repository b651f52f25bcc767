package config

import (
	"strings"
	"testing"
)

// TestRefereeKeyFromConfig: system.json's security.referee_key_file names
// a file, relative to the config folder, whose content (trimmed) is the
// referee key; LEAGUETUI_REFEREE_KEY overrides it; a file that is missing
// or empty is an error that names the setting; with neither there is no key.
func TestRefereeKeyFromConfig(t *testing.T) {
	noEnv := func(string) string { return "" }
	env := func(name string) string {
		if name == RefereeKeyEnv {
			return "ref-from-env"
		}
		return ""
	}
	dir := writeFolder(t, map[string]string{
		"system.json":       `{"security": {"referee_key_file": "keys/referee.key"}}`,
		"keys/referee.key":  "  ref-from-file\n",
		"empty/system.json": `{"security": {"referee_key_file": "nothing.key"}}`,
		"empty/nothing.key": " \n",
		"gone/system.json":  `{"security": {"referee_key_file": "missing.key"}}`,
		"none/system.json":  `{"security": {"token_length": 32}}`,
	})
	load := func(sub string) Config {
		t.Helper()
		cfg, err := Load(dir + "/" + sub)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}

	cfg := load("")
	if key, err := cfg.RefereeKey(noEnv); key != "ref-from-file" || err != nil {
		t.Errorf("from the file: %q, %v; want ref-from-file", key, err)
	}
	if key, err := cfg.RefereeKey(env); key != "ref-from-env" || err != nil {
		t.Errorf("with LEAGUETUI_REFEREE_KEY set: %q, %v; want the environment's", key, err)
	}
	for _, sub := range []string{"empty", "gone"} {
		if key, err := load(sub).RefereeKey(noEnv); key != "" || err == nil || !strings.Contains(err.Error(), "security.referee_key_file") {
			t.Errorf("%s key file: %q, %v; want an error naming security.referee_key_file", sub, key, err)
		}
	}
	if key, err := load("none").RefereeKey(noEnv); key != "" || err != nil {
		t.Errorf("no key anywhere: %q, %v; want none", key, err)
	}
	if key, err := Default().RefereeKey(noEnv); key != "" || err != nil {
		t.Errorf("defaults: %q, %v; want none", key, err)
	}
}
