package sandbox

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A runtime (a JDK, Python, Node, a compiled program's own folder) is
// found from the file the command's executable resolves to, through its
// links (java → /usr/bin/java → /etc/alternatives/java →
// /usr/lib/jvm/java-17-openjdk-amd64/bin/java), never listed by hand per
// distribution. Its installation is the folder above that file's bin/,
// and what the installation's own links point to outside it is its
// configuration where the distribution put it (Debian's JDK:
// conf/security/java.security → /etc/java-17-openjdk/security/java.security;
// Debian's Python: /usr/lib/python3.11/sitecustomize.py →
// /etc/python3.11/sitecustomize.py).

// configRoots are the folders a link out of an installation is followed
// into: where a distribution puts a runtime's configuration. Nothing
// else is: an installation may be a student's own folder (./bin/player),
// whose links are theirs to write, so a link is followed only to a file
// or folder every user of the machine may read anyway, beneath these.
var configRoots = []string{"/etc"}

// Bounds on looking through installations: a JDK holds a few hundred
// files, Python's standard library a few thousand.
const (
	walkEntries   = 50_000 // entries looked at in all, per request
	walkDepth     = 12     // folders beneath an installation's root
	linkHops      = 16     // links followed from the executable
	sharedBin     = 100    // a bin/ holding more is a prefix many programs share
	folderEntries = 1_000  // entries of a linked-to folder, all readable by every user, to grant it whole
)

// runtimeReads are the installations of the runtimes the command starts
// and the files and folders their links point to beneath configRoots.
func (r Request) runtimeReads() []string {
	budget := walkEntries
	var out []string
	walked := map[string]bool{}
	for _, bin := range r.runtimeBinaries() {
		for _, root := range r.installations(bin) {
			if walked[root] {
				continue
			}
			walked[root] = true
			if !systemReadable(root) && r.wholeFolderOK(root) {
				out = append(out, root)
			}
			out = append(out, linksOut(root, &budget)...)
		}
	}
	return out
}

// runtimeBinaries are the program, each link on its way to the file it
// resolves to and that file, and the same for the interpreter a script's
// #! line names.
func (r Request) runtimeBinaries() []string {
	var out []string
	seen := map[string]bool{}
	var visit func(path string, depth int)
	visit = func(path string, depth int) {
		if path == "" || depth > 4 || seen[path] {
			return
		}
		seen[path] = true
		chain := linkChain(path)
		out = append(out, chain...)
		for _, interp := range interpreters(chain[len(chain)-1]) {
			visit(interp, depth+1)
		}
	}
	visit(r.Program, 0)
	return out
}

// linkChain is path, each path its links lead to one hop at a time, and
// the file it resolves to.
func linkChain(path string) []string {
	chain := []string{filepath.Clean(path)}
	for range linkHops {
		last := chain[len(chain)-1]
		target, err := os.Readlink(last)
		if err != nil {
			break // not a link
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(last), target)
		}
		chain = append(chain, filepath.Clean(target))
	}
	if final, err := filepath.EvalSymlinks(path); err == nil && final != chain[len(chain)-1] {
		chain = append(chain, final)
	}
	return chain
}

// interpreters are what a script's #! line starts: the interpreter it
// names and, for env, the program env finds on the search path (the
// sandbox's PATH is leaguetui's).
func interpreters(path string) []string {
	fields := shebang(path)
	if len(fields) == 0 {
		return nil
	}
	out := []string{fields[0]}
	if filepath.Base(fields[0]) != "env" {
		return out
	}
	for _, f := range fields[1:] {
		if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
			continue // env's options (-S), and variables it sets
		}
		if found, err := exec.LookPath(f); err == nil {
			if abs, err := filepath.Abs(found); err == nil {
				out = append(out, abs)
			}
		}
		break
	}
	return out
}

// installations are the folders the runtime of bin is installed in: the
// folder above its bin/ (a JDK's root, a virtual environment, an SDK), or,
// where that folder is a prefix many programs share (/usr, /usr/local,
// ~/.local, a bin/ of more than sharedBin programs), its folders in lib/,
// lib64/, libexec/ and share/ named for the binary (python3.11:
// /usr/lib/python3.11, /usr/lib/python3). Never the home folder or a
// folder above it.
func (r Request) installations(bin string) []string {
	dir := filepath.Dir(bin)
	if b := filepath.Base(dir); b != "bin" && b != "sbin" {
		return nil
	}
	root := filepath.Dir(dir)
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		root = resolved
	}
	if !r.sharedPrefix(root, dir) {
		if !r.wholeFolderOK(root) {
			return nil
		}
		return []string{root}
	}
	name := filepath.Base(bin)
	stem := strings.TrimRight(name, "0123456789.-")
	var out []string
	for _, sub := range []string{"lib", "lib64", "libexec", "share"} {
		entries, _ := os.ReadDir(filepath.Join(root, sub))
		for _, e := range entries {
			if e.IsDir() && namedFor(e.Name(), name, stem) {
				out = append(out, filepath.Join(root, sub, e.Name()))
			}
		}
	}
	return out
}

// namedFor says a folder's name is a binary's, or the binary's without
// its version, or with another version (python3 and python3.11 for
// python3.11).
func namedFor(folder, name, stem string) bool {
	if folder == name {
		return true
	}
	if stem == "" || !strings.HasPrefix(folder, stem) {
		return false
	}
	return strings.Trim(folder[len(stem):], "0123456789.-") == ""
}

// sharedPrefix says root is a prefix many programs are installed in, not
// one runtime's installation.
func (r Request) sharedPrefix(root, bin string) bool {
	switch root {
	case "/", "/usr", "/usr/local":
		return true
	}
	if r.Home != "" && (within(root, r.Home) || root == filepath.Join(r.Home, ".local")) {
		return true
	}
	f, err := os.Open(bin)
	if err != nil {
		return true
	}
	defer f.Close()
	entries, _ := f.ReadDir(sharedBin + 1)
	return len(entries) > sharedBin
}

// linksOut walks root, within the budget, for links to files and folders
// outside it beneath configRoots that every user may read.
func linksOut(root string, budget *int) []string {
	var out []string
	depth := strings.Count(filepath.Clean(root), string(filepath.Separator))
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if *budget--; *budget < 0 {
			return filepath.SkipAll
		}
		if d.IsDir() && strings.Count(path, string(filepath.Separator))-depth >= walkDepth {
			return filepath.SkipDir
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil || within(root, target) || systemReadable(target) {
			return nil
		}
		if inConfigRoot(target) && everyoneReads(target) {
			out = append(out, target)
		}
		return nil
	})
	return out
}

// systemReadable says every program may read path already.
func systemReadable(path string) bool {
	for _, s := range systemRead {
		if within(s, path) {
			return true
		}
	}
	return false
}

func inConfigRoot(path string) bool {
	for _, c := range configRoots {
		if within(c, path) && filepath.Clean(c) != filepath.Clean(path) {
			return true
		}
	}
	return false
}

// everyoneReads says every user of the machine may read path: each
// folder above it may be passed through by others, a file read by
// others, and a folder listed with all it holds (up to folderEntries
// entries; more is not granted whole).
func everyoneReads(path string) bool {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		if err != nil || info.Mode().Perm()&0o001 == 0 {
			return false
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	info, err := os.Stat(path)
	if err != nil {
		return false
	}
	if !info.IsDir() {
		return info.Mode().IsRegular() && info.Mode().Perm()&0o004 != 0
	}
	entries, ok := 0, true
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if entries++; err != nil || entries > folderEntries {
			ok = false
			return filepath.SkipAll
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil // the rule is on where it points, which it does not grant
		}
		info, err := d.Info()
		want := fs.FileMode(0o004)
		if d.IsDir() {
			want = 0o005
		}
		if err != nil || info.Mode().Perm()&want != want {
			ok = false
			return filepath.SkipAll
		}
		return nil
	})
	return ok
}
