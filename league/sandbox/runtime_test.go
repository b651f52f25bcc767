package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// everyoneFolder is a temporary folder every user may pass through, as
// the folders above a distribution's files are (t.TempDir's are its
// owner's only).
func everyoneFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // whatever the umask
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// A runtime's installation is found from the command's executable through
// its links, granted whole, and what its own links point to outside it
// (its configuration, in a folder standing for /etc here) is granted file
// by file: only what every user may read, never what Hide names, never
// a link to anywhere but the configuration's folder.
func TestPolicyFollowsARuntimesLinks(t *testing.T) {
	root := everyoneFolder(t)
	etc := filepath.Join(root, "etc")
	saved := configRoots
	configRoots = []string{etc}
	t.Cleanup(func() { configRoots = saved })

	jdk := filepath.Join(root, "jvm", "jdk-17")
	writeFile(t, filepath.Join(jdk, "bin", "java"), "\x7fELF", 0o755)
	writeFile(t, filepath.Join(jdk, "lib", "modules"), "classes", 0o644)
	writeFile(t, filepath.Join(etc, "jdk-17", "security", "java.security"), "securerandom.source=file:/dev/random\n", 0o644)
	writeFile(t, filepath.Join(etc, "jdk-17", "jvm.cfg"), "-server KNOWN\n", 0o644)
	writeFile(t, filepath.Join(etc, "jdk-17", "secret.key"), "a key\n", 0o600)
	writeFile(t, filepath.Join(etc, "leaguetui", "admin.token"), "token\n", 0o644)
	writeFile(t, filepath.Join(root, "elsewhere", "notes.txt"), "someone else's\n", 0o644)
	symlink(t, filepath.Join(etc, "jdk-17", "security", "java.security"), filepath.Join(jdk, "conf", "security", "java.security"))
	symlink(t, "../../../etc/jdk-17/jvm.cfg", filepath.Join(jdk, "lib", "jvm.cfg")) // relative, as Debian's are
	symlink(t, filepath.Join(etc, "jdk-17", "secret.key"), filepath.Join(jdk, "conf", "secret.key"))
	symlink(t, filepath.Join(etc, "leaguetui", "admin.token"), filepath.Join(jdk, "conf", "token"))
	symlink(t, filepath.Join(root, "elsewhere", "notes.txt"), filepath.Join(jdk, "conf", "notes.txt"))
	symlink(t, filepath.Join(etc, "missing"), filepath.Join(jdk, "conf", "dangling"))
	symlink(t, "modules", filepath.Join(jdk, "lib", "modules.link")) // inside the installation
	// java → alternatives/java → jvm/jdk-17/bin/java, as on Debian.
	symlink(t, filepath.Join(jdk, "bin", "java"), filepath.Join(root, "alternatives", "java"))
	symlink(t, filepath.Join(root, "alternatives", "java"), filepath.Join(root, "usr", "bin", "java"))

	home := t.TempDir()
	p := Request{Program: filepath.Join(root, "usr", "bin", "java"), Args: []string{"Player.java"}, Dir: filepath.Join(root, "player"),
		Data: filepath.Join(root, "data"), Temp: filepath.Join(root, "tmp"), Home: home,
		Hide: []string{filepath.Join(etc, "leaguetui")}}.Policy()
	for _, want := range []string{jdk, filepath.Join(etc, "jdk-17", "security", "java.security"), filepath.Join(etc, "jdk-17", "jvm.cfg")} {
		if !slices.Contains(p.Read, want) {
			t.Errorf("read %v lacks %s", p.Read, want)
		}
	}
	for _, never := range []string{etc, filepath.Join(etc, "jdk-17"), filepath.Join(etc, "jdk-17", "secret.key"),
		filepath.Join(etc, "leaguetui", "admin.token"), filepath.Join(root, "elsewhere", "notes.txt"),
		filepath.Join(root, "elsewhere"), filepath.Join(etc, "missing"), root} {
		if slices.Contains(p.Read, never) {
			t.Errorf("read %v holds %s", p.Read, never)
		}
	}
	if slices.ContainsFunc(p.Write, func(w string) bool { return strings.HasPrefix(w, etc) || strings.HasPrefix(w, jdk) }) {
		t.Errorf("write %v holds the installation or its configuration", p.Write)
	}

	// A linked-to folder is granted whole only when every user may read
	// all it holds.
	writeFile(t, filepath.Join(etc, "shared", "a.conf"), "a\n", 0o644)
	writeFile(t, filepath.Join(etc, "private", "b.conf"), "b\n", 0o640)
	symlink(t, filepath.Join(etc, "shared"), filepath.Join(jdk, "conf", "shared"))
	symlink(t, filepath.Join(etc, "private"), filepath.Join(jdk, "conf", "private"))
	p = Request{Program: filepath.Join(jdk, "bin", "java"), Dir: filepath.Join(root, "player"), Home: home}.Policy()
	if !slices.Contains(p.Read, filepath.Join(etc, "shared")) || slices.Contains(p.Read, filepath.Join(etc, "private")) {
		t.Errorf("read %v: want %s and not %s", p.Read, filepath.Join(etc, "shared"), filepath.Join(etc, "private"))
	}
}

// A runtime in a prefix many programs share (/usr here) is its folders of
// lib/ named for it, not the prefix: Python's /usr/lib/python3.11 and its
// link to /etc/python3.11/sitecustomize.py. A #!/usr/bin/env line's
// program is found on the search path.
func TestPolicyFollowsASharedPrefixRuntime(t *testing.T) {
	root := everyoneFolder(t)
	etc := filepath.Join(root, "etc")
	saved := configRoots
	configRoots = []string{etc}
	t.Cleanup(func() { configRoots = saved })

	usr := filepath.Join(root, "usr")
	for i := range sharedBin + 1 { // a bin/ of many programs
		writeFile(t, filepath.Join(usr, "bin", "tool"+strings.Repeat("x", i)), "", 0o755)
	}
	writeFile(t, filepath.Join(usr, "bin", "python3.11"), "\x7fELF", 0o755)
	symlink(t, "python3.11", filepath.Join(usr, "bin", "python3"))
	writeFile(t, filepath.Join(usr, "lib", "python3.11", "os.py"), "", 0o644)
	writeFile(t, filepath.Join(usr, "lib", "perl5", "strict.pm"), "", 0o644)
	writeFile(t, filepath.Join(etc, "python3.11", "sitecustomize.py"), "", 0o644)
	writeFile(t, filepath.Join(etc, "perl", "Config.pm"), "", 0o644)
	symlink(t, filepath.Join(etc, "python3.11", "sitecustomize.py"), filepath.Join(usr, "lib", "python3.11", "sitecustomize.py"))
	symlink(t, filepath.Join(etc, "perl", "Config.pm"), filepath.Join(usr, "lib", "perl5", "Config.pm"))
	script := filepath.Join(root, "player", "player.py")
	writeFile(t, script, "#!/usr/bin/env -S python3 -u\n", 0o755)
	t.Setenv("PATH", filepath.Join(usr, "bin"))

	p := Request{Program: script, Dir: filepath.Join(root, "player"), Home: t.TempDir()}.Policy()
	if want := filepath.Join(etc, "python3.11", "sitecustomize.py"); !slices.Contains(p.Read, want) {
		t.Errorf("read %v lacks %s", p.Read, want)
	}
	for _, never := range []string{usr, filepath.Join(etc, "perl", "Config.pm")} {
		if slices.Contains(p.Read, never) {
			t.Errorf("read %v holds %s", p.Read, never)
		}
	}
}

// A program beneath bin/ in the home folder (~/bin/tool) has no
// installation: the home folder is never granted nor walked.
func TestPolicyNeverTakesTheHomeForAnInstallation(t *testing.T) {
	root := everyoneFolder(t)
	etc := filepath.Join(root, "etc")
	saved := configRoots
	configRoots = []string{etc}
	t.Cleanup(func() { configRoots = saved })
	home := filepath.Join(root, "home")
	writeFile(t, filepath.Join(home, "bin", "tool"), "\x7fELF", 0o755)
	writeFile(t, filepath.Join(etc, "tool.conf"), "", 0o644)
	symlink(t, filepath.Join(etc, "tool.conf"), filepath.Join(home, "notes", "tool.conf"))
	p := Request{Program: filepath.Join(home, "bin", "tool"), Dir: filepath.Join(root, "player"), Home: home}.Policy()
	for _, never := range []string{home, filepath.Join(etc, "tool.conf")} {
		if slices.Contains(p.Read, never) {
			t.Errorf("read %v holds %s", p.Read, never)
		}
	}
}

// On this machine, where a distribution's JDK or Python links into /etc:
// those links are granted.
func TestPolicyGrantsThisMachinesRuntimeConfiguration(t *testing.T) {
	found := false
	for _, c := range []struct{ program, link string }{
		{"/usr/lib/jvm/java-17-openjdk-amd64/bin/java", "/usr/lib/jvm/java-17-openjdk-amd64/conf/security/java.security"},
		{"/usr/lib/jvm/java-17-openjdk-arm64/bin/java", "/usr/lib/jvm/java-17-openjdk-arm64/conf/security/java.security"},
		{"/usr/bin/python3", "/usr/lib/python3.11/sitecustomize.py"},
	} {
		target, err := filepath.EvalSymlinks(c.link)
		if err != nil || !strings.HasPrefix(target, "/etc/") {
			continue
		}
		found = true
		p := Request{Program: c.program, Dir: t.TempDir(), Home: t.TempDir()}.Policy()
		if !slices.Contains(p.Read, target) {
			t.Errorf("%s: read %v lacks %s, where %s points", c.program, p.Read, target, c.link)
		}
	}
	if !found {
		t.Skip("no runtime here links into /etc (Debian's openjdk-17-jdk-headless or python3.11 do)")
	}
}

// The end of a program's output names the path it was refused, in each
// language's words; stack frames are left out of its last lines.
func TestParseOutputFindsRefusedPaths(t *testing.T) {
	for _, c := range []struct{ output, path string }{
		{"PermissionError: [Errno 13] Permission denied: '/etc/java-17/x.conf'", "/etc/java-17/x.conf"},
		{"Error: EACCES: permission denied, open '/etc/node.conf'\n    at Object.openSync (node:fs:573:18)", "/etc/node.conf"},
		{"Exception in thread \"main\" java.nio.file.AccessDeniedException: /etc/java-17-openjdk/security/java.security\n" +
			"\tat java.base/sun.nio.fs.UnixException.translateToIOException(UnixException.java:90)\n\t... 3 more",
			"/etc/java-17-openjdk/security/java.security"},
		{"java.io.FileNotFoundException: /srv/data.txt (Permission denied)", "/srv/data.txt"},
		{"open /var/lib/thing.db: permission denied", "/var/lib/thing.db"},
		{"cat: /tmp/x/needed.conf: Permission denied", "/tmp/x/needed.conf"},
	} {
		o := ParseOutput("leaguetui: the checked agent: files confined\nstarting\n"+c.output, 5)
		if !slices.Equal(o.Refused, []string{c.path}) {
			t.Errorf("%q: refused %v, want %s", c.output, o.Refused, c.path)
		}
		for _, line := range o.Last {
			if strings.HasPrefix(line, "at ") || strings.HasPrefix(line, "...") || strings.HasPrefix(line, "leaguetui: ") {
				t.Errorf("%q: last lines %q hold %q", c.output, o.Last, line)
			}
		}
	}
	o := ParseOutput("registration: connect to http://127.0.0.1:4000/mcp failed\nexit", 5)
	if o.Line != "" || len(o.Refused) != 0 || o.Advice("--read PATH") != "" {
		t.Errorf("no permission error, yet %+v", o)
	}
	if got := ParseOutput("socket: permission denied", 5).Advice("--read PATH"); !strings.Contains(got, `("socket: permission denied")`) {
		t.Errorf("advice without a path: %s", got)
	}
	dir := t.TempDir()
	got := ParseOutput("open "+dir+": permission denied\nopen "+dir+"/new.log: permission denied", 5).Advice("--read PATH")
	if !strings.Contains(got, "the sandbox may have denied it "+dir+": grant it with --read PATH") ||
		!strings.Contains(got, "it may have tried to make "+dir+"/new.log") {
		t.Errorf("advice: %s", got)
	}
}
