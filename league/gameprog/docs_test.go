package gameprog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/config"
)

const gamesPage = "../../docs/games.md"

// section is the page's "## Writing a game", up to the next "## ".
func section(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(gamesPage)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "\n## Writing a game\n")
	if !ok {
		t.Fatalf("%s has no ## Writing a game", gamesPage)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// blocks are the fenced blocks of text whose info string is lang.
func blocks(text, lang string) []string {
	var out []string
	for {
		_, rest, ok := strings.Cut(text, "```"+lang+"\n")
		if !ok {
			return out
		}
		body, after, _ := strings.Cut(rest, "```")
		out = append(out, body)
		text = after
	}
}

// TestWritingAGameMatchesTheProtocol: every message the page shows
// decodes into its Go type with no key the type lacks, every message
// type has an example, and every field of every type (its seats' too) is
// in one, so neither the page nor the types can change alone.
func TestWritingAGameMatchesTheProtocol(t *testing.T) {
	types := map[string]func() any{}
	for _, m := range Messages {
		types[m.Type] = m.New
	}
	keys := map[string]map[string]bool{} // message type -> every key path its examples hold
	for _, block := range blocks(section(t), "jsonl") {
		for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
			typ, err := typeOf([]byte(line))
			if err != nil {
				t.Errorf("%s: %v", line, err)
				continue
			}
			newValue, ok := types[typ]
			if !ok {
				t.Errorf("%s: no message type %q in Messages", line, typ)
				continue
			}
			if err := decodeStrict([]byte(line), newValue()); err != nil {
				t.Errorf("%s: %v", line, err)
			}
			var v any
			_ = json.Unmarshal([]byte(line), &v)
			if keys[typ] == nil {
				keys[typ] = map[string]bool{}
			}
			keyPaths(v, "", keys[typ])
		}
	}
	for _, m := range Messages {
		if keys[m.Type] == nil {
			t.Errorf("message %q has no example in %s", m.Type, gamesPage)
			continue
		}
		for _, field := range fieldPaths(reflect.TypeOf(m.New()).Elem(), "") {
			if !keys[m.Type][field] {
				t.Errorf("message %q: no example shows %s", m.Type, field)
			}
		}
	}
}

// TestWritingAGameManifest: the page's manifest is one leaguetui loads,
// and shows every key a manifest has.
func TestWritingAGameManifest(t *testing.T) {
	found := blocks(section(t), "json")
	if len(found) != 1 {
		t.Fatalf("%d json blocks in Writing a game, want the manifest alone", len(found))
	}
	path := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(path, []byte(found[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := config.LoadGameManifest(path); err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.NewDecoder(bytes.NewReader([]byte(found[0]))).Decode(&v); err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{}
	keyPaths(v, "", shown)
	for _, field := range fieldPaths(reflect.TypeOf(config.GameManifest{}), "") {
		if !shown[field] && !strings.HasPrefix(field, "options.") {
			t.Errorf("the manifest on the page does not show %s", field)
		}
	}
}

// TestExampleManifestsLoad: the examples' manifests are ones leaguetui
// loads.
func TestExampleManifestsLoad(t *testing.T) {
	paths, _ := filepath.Glob("../../examples/games/*.json")
	if len(paths) < 2 {
		t.Fatalf("examples/games holds %v", paths)
	}
	for _, p := range paths {
		if _, err := config.LoadGameManifest(p); err != nil {
			t.Error(err)
		}
	}
}

// keyPaths adds every key of v, nested ones as a.b, lists' entries
// under their list's key.
func keyPaths(v any, prefix string, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			into[prefix+k] = true
			keyPaths(sub, prefix+k+".", into)
		}
	case []any:
		for _, sub := range x {
			keyPaths(sub, prefix, into)
		}
	}
}

// fieldPaths are the JSON keys of a struct type, a struct (or a list of
// them) inside it as key.field; maps are not looked into.
func fieldPaths(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		out = append(out, prefix+name)
		ft := f.Type
		if ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			out = append(out, fieldPaths(ft, prefix+name+".")...)
		}
	}
	return out
}

// TestLimitsPageMatchesCode: docs/limits.md's bounds of a game program
// are the ones its referee applies.
func TestLimitsPageMatchesCode(t *testing.T) {
	page, err := os.ReadFile("../../docs/limits.md")
	if err != nil {
		t.Fatal(err)
	}
	l := config.GameProgramLimits
	for _, row := range []string{
		fmt.Sprintf("| one line it writes (an answer) | %d MiB | the game fails: its match is a draw, both seats `ERROR`, `game_error` \"a line of more than %d bytes\"", MaxLine>>20, MaxLine),
		fmt.Sprintf("| its answer to a match's start | %d s |", int(config.DefaultGameStart.Seconds())),
		fmt.Sprintf("| every later answer | %d s |", int(config.DefaultGameAnswer.Seconds())),
		fmt.Sprintf("| its exit once its input closes | %d s |", int(stopGrace.Seconds())),
		fmt.Sprintf("| %d MiB, %d, %d MiB, %d MiB, %d s |", l.MemoryMB, l.Processes, l.FileMB, l.DiskMB, l.CPUSeconds),
	} {
		if !strings.Contains(strings.Join(strings.Fields(string(page)), " "), row) {
			t.Errorf("docs/limits.md lacks %q", row)
		}
	}
}
