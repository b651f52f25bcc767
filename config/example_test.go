package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// exampleFolder is the example config folder docs/configuration.md links.
const exampleFolder = "../docs/examples/config"

// TestExampleConfigLoads: the example folder loads and validates, and
// what it changes from the defaults is read.
func TestExampleConfigLoads(t *testing.T) {
	cfg, err := Load(exampleFolder)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if cfg.LeagueID != "league_example" || cfg.Timeouts.Move != 20*time.Second ||
		cfg.Participants.MaxPlayers != 64 || cfg.Player.Strategies != "random,counter,adaptive" {
		t.Errorf("the example's settings were not read: league %q, move timeout %v, max players %d, strategies %q",
			cfg.LeagueID, cfg.Timeouts.Move, cfg.Participants.MaxPlayers, cfg.Player.Strategies)
	}
}

// TestExampleAndPageHoldEveryKey: the example folder writes every key
// the loader reads, so that it shows them all, and docs/configuration.md
// names each.
func TestExampleAndPageHoldEveryKey(t *testing.T) {
	page, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []struct {
		path string
		read keys
	}{
		{"system.json", typeKeys(reflect.TypeFor[systemFile]())},
		{"leagues/league_example.json", typeKeys(reflect.TypeFor[leagueFile]())},
		{"defaults/referee.json", typeKeys(reflect.TypeFor[refereeFile]())},
		{"defaults/player.json", typeKeys(reflect.TypeFor[playerFile]())},
	} {
		data, err := os.ReadFile(filepath.Join(exampleFolder, file.path))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		written := flatKeys("", doc)
		for _, key := range flatShape("", file.read) {
			if !slices.Contains(written, key) {
				t.Errorf("%s of the example folder does not write %s", file.path, key)
			}
			if !strings.Contains(string(page), "`"+key+"`") {
				t.Errorf("docs/configuration.md does not name %s's key `%s`", file.path, key)
			}
		}
	}
}

// flatKeys lists a JSON object's keys as dotted paths, objects' own keys
// included.
func flatKeys(prefix string, doc map[string]any) []string {
	var out []string
	for name, value := range doc {
		out = append(out, prefix+name)
		if sub, ok := value.(map[string]any); ok {
			out = append(out, flatKeys(prefix+name+".", sub)...)
		}
	}
	return out
}

// flatShape lists the keys of a shape whose values are not objects.
func flatShape(prefix string, k keys) []string {
	var out []string
	for name, sub := range k {
		if sub == nil {
			out = append(out, prefix+name)
			continue
		}
		out = append(out, flatShape(prefix+name+".", sub)...)
	}
	slices.Sort(out)
	return out
}
