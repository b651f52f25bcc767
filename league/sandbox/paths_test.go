package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A folder the program may read that holds the league's data folder is
// granted piecewise: every entry but the data folder, and its listing.
func TestPolicyKeepsHiddenPathsOut(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	for _, dir := range []string{filepath.Join(root, "data/credentials"), filepath.Join(root, "src"),
		filepath.Join(home, ".pyenv/shims"), filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range []string{filepath.Join(root, "src/player.py"), filepath.Join(root, "notes.txt"),
		filepath.Join(home, ".pyenv/shims/python3")} {
		if err := os.WriteFile(file, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(root, "data")
	p := Request{Program: filepath.Join(home, ".pyenv/shims/python3"), Args: []string{"src/player.py", "--port", "9"},
		Dir: root, Data: filepath.Join(data, "programs", "alice"), Temp: "/tmp/leaguetui-alice", Home: home,
		Hide: []string{data}, Bind: []uint16{9}, Connect: []uint16{8000}}.Policy()
	for _, want := range []string{filepath.Join(root, "src"), filepath.Join(root, "notes.txt"), filepath.Join(home, ".pyenv"), "/bin"} {
		if !slices.Contains(p.Read, want) {
			t.Errorf("read %v lacks %s", p.Read, want)
		}
	}
	for _, never := range []string{root, data, home, filepath.Join(home, ".ssh")} {
		if slices.Contains(p.Read, never) {
			t.Errorf("read %v holds %s", p.Read, never)
		}
	}
	if !slices.Contains(p.List, root) {
		t.Errorf("list %v lacks %s, the folder that holds the data folder", p.List, root)
	}
	if !slices.Contains(p.Write, filepath.Join(data, "programs", "alice")) || !slices.Contains(p.Write, "/tmp/leaguetui-alice") {
		t.Errorf("write %v lacks the program's own folders", p.Write)
	}
	if !slices.Equal(p.Bind, []uint16{9}) || !slices.Equal(p.Connect, []uint16{8000}) || p.AnyPort || p.UDP {
		t.Errorf("ports: bind %v connect %v any %v udp %v", p.Bind, p.Connect, p.AnyPort, p.UDP)
	}
}

// Neither /, nor the home folder, nor the shared temporary folder is ever
// granted whole, whatever the arguments name.
func TestPolicyNeverGrantsWideFolders(t *testing.T) {
	home := t.TempDir()
	p := Request{Program: "/bin/sh", Args: []string{"/", home, os.TempDir()}, Dir: "/", Home: home,
		Data: filepath.Join(home, "d"), Temp: filepath.Join(os.TempDir(), "x")}.Policy()
	for _, wide := range []string{"/", home, os.TempDir()} {
		if slices.Contains(p.Read, wide) {
			t.Errorf("read %v holds %s", p.Read, wide)
		}
	}
}
