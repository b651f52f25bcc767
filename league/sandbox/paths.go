package sandbox

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Request is what leaguetui knows of a program it is about to confine.
// Paths are absolute.
type Request struct {
	Program string   // the executable, found on PATH or in Dir
	Args    []string // its arguments after the executable
	Dir     string   // its working folder
	Data    string   // its own data folder ({data}), its HOME
	Temp    string   // its private temporary folder, its TMPDIR
	Home    string   // the home folder of leaguetui's user, where interpreters may be installed
	Read    []string // more paths its entry names
	// Hide are paths it must never read, even inside a folder it may: the
	// league's data folder (credentials, tokens, other programs' folders),
	// the config folder, key files, other programs' folders.
	Hide    []string
	Bind    []uint16
	Connect []uint16
	AnyPort bool
	UDP     bool
	Limits  Limits
	Require bool
}

// systemRead are the folders and files every program may read: the
// system's programs and libraries, and of /etc only what running,
// resolving names and trusting certificates need. /proc shows other
// processes' command lines but not their environment or memory (Landlock
// refuses those across its boundary), and no secret is ever on a command
// line leaguetui writes.
var systemRead = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix/store",
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
	"/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/gai.conf", "/etc/host.conf",
	"/etc/localtime", "/etc/timezone", "/etc/passwd", "/etc/group", "/etc/protocols", "/etc/services",
	"/etc/mime.types", "/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates", "/etc/pki/tls/certs",
	"/etc/pki/ca-trust", "/run/systemd/resolve/resolv.conf", "/run/systemd/resolve/stub-resolv.conf",
	"/proc", "/sys", "/dev/urandom", "/dev/random", "/dev/zero",
}

// systemWrite are the device files every program may write.
var systemWrite = []string{"/dev/null", "/dev/full"}

// homeSecrets are folders of a home that hold keys, never readable even
// when an interpreter's folder beneath the home is.
var homeSecrets = []string{".ssh", ".gnupg", ".aws", ".azure", ".config", ".docker", ".kube", ".netrc",
	".git-credentials", ".npmrc", ".pypirc"}

// Policy turns the request into the rules ExecCommand applies.
func (r Request) Policy() Policy {
	hide := slices.Clone(r.Hide)
	if r.Home != "" {
		for _, s := range homeSecrets {
			hide = append(hide, filepath.Join(r.Home, s))
		}
	}
	read := []string{r.Program}
	if folder := filepath.Dir(r.Program); r.wholeFolderOK(folder) {
		read = append(read, folder) // a script imports what lies beside it
	}
	read = append(read, r.interpreterFolders()...)
	read = append(read, r.runtimeReads()...)
	if r.wholeFolderOK(r.Dir) {
		read = append(read, r.Dir)
	}
	read = append(read, r.argumentPaths()...)
	read = append(read, r.Read...)
	g := grants{hide: hide}
	for _, path := range dedupe(read) {
		g.grant(path)
	}
	return Policy{
		Read:    append(slices.Clone(systemRead), g.read...),
		List:    g.list,
		Write:   append(slices.Clone(systemWrite), r.Data, r.Temp),
		Bind:    r.Bind,
		Connect: r.Connect,
		AnyPort: r.AnyPort,
		UDP:     r.UDP,
		Limits:  r.Limits,
		Require: r.Require,
	}
}

// wholeFolderOK says a folder may be granted whole: never /, nor the
// home folder itself (keys live there), nor its parents, nor the shared
// temporary folder (other programs' temporary folders are there).
func (r Request) wholeFolderOK(path string) bool {
	if path == "" || path == "/" || filepath.Clean(path) == filepath.Clean(os.TempDir()) {
		return false
	}
	return r.Home == "" || !within(path, r.Home)
}

// interpreterFolders are what the program needs to run when it is
// installed beneath the home folder (pyenv, nvm, a virtual environment):
// the top folder beneath the home that holds the executable, the file
// a link points to, and a script's interpreter (for env, the program it
// finds on the search path).
func (r Request) interpreterFolders() []string {
	var out []string
	seen := map[string]bool{}
	var visit func(path string, depth int)
	visit = func(path string, depth int) {
		if path == "" || seen[path] || depth > 4 {
			return
		}
		seen[path] = true
		out = append(out, r.topBeneathHome(path)...)
		if target, err := filepath.EvalSymlinks(path); err == nil && target != path {
			visit(target, depth+1)
		}
		for _, interp := range interpreters(path) {
			visit(interp, depth+1)
		}
	}
	visit(r.Program, 0)
	return out
}

// topBeneathHome is the folder just beneath the home that holds path
// (~/.pyenv for ~/.pyenv/shims/python3), if path is beneath the home.
func (r Request) topBeneathHome(path string) []string {
	if r.Home == "" {
		return nil
	}
	rel, err := filepath.Rel(r.Home, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return nil
	}
	top, _, _ := strings.Cut(rel, string(filepath.Separator))
	return []string{filepath.Join(r.Home, top)}
}

// shebang is a script's first line, when it names an interpreter: the
// interpreter, then its arguments.
func shebang(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	line, _ := bufio.NewReader(io.LimitReader(f, 256)).ReadString('\n')
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return nil
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 || !filepath.IsAbs(fields[0]) {
		return nil
	}
	return fields
}

// argumentPaths are the paths the program's arguments name that exist:
// a folder, or the folder holding a file (a script imports what lies
// beside it). Relative ones are taken from the program's folder.
func (r Request) argumentPaths() []string {
	var out []string
	for _, a := range r.Args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		path := a
		if !filepath.IsAbs(path) {
			path = filepath.Join(r.Dir, path)
		}
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		if !info.IsDir() {
			out = append(out, filepath.Clean(path))
			path = filepath.Dir(path)
		}
		if r.wholeFolderOK(path) {
			out = append(out, filepath.Clean(path))
		}
	}
	return out
}

// grants are read rights that keep hidden paths out. Landlock only adds
// rights beneath a folder, never removes them, so a folder that holds a
// hidden path is granted piecewise: its listing, and each entry that is
// not hidden (recursively for one that holds a hidden path).
type grants struct {
	hide []string
	read []string
	list []string
}

func (g *grants) grant(path string) {
	path = filepath.Clean(path)
	holdsHidden := false
	for _, h := range g.hide {
		if within(h, path) {
			return // hidden itself, or inside a hidden folder
		}
		if within(path, h) {
			holdsHidden = true
		}
	}
	if !holdsHidden {
		g.read = append(g.read, path)
		return
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return
	}
	g.list = append(g.list, path)
	for _, e := range entries {
		g.grant(filepath.Join(path, e.Name()))
	}
}

// within reports whether path is folder or lies beneath it.
func within(folder, path string) bool {
	folder, path = filepath.Clean(folder), filepath.Clean(path)
	if folder == path {
		return true
	}
	if folder == "/" {
		return true
	}
	return strings.HasPrefix(path, folder+string(filepath.Separator))
}

func dedupe(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
