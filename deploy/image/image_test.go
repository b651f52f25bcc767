package image

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// repoRoot is leaguetui's module, two folders above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "leaguetui")); err != nil {
		t.Fatalf("leaguetui's module is not at %s: %v", root, err)
	}
	return root
}

// staticLeaguetui builds leaguetui as the image ships it: no cgo.
func staticLeaguetui(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "leaguetui")
	cmd := exec.Command(goTool(), "build", "-trimpath", "-o", out, "./cmd/leaguetui")
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	return out
}

func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// skipWithout skips where the machine lacks what a test needs, and fails
// under CI=true, where .ci/run provides everything.
func skipWithout(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: every test must run)", why)
	}
	t.Skip(why)
}

// TestImage builds the image from a static binary, writes it as the
// tarball `docker load` reads, reads it back, checks how it runs, unpacks
// it and runs its binary in a chroot as the image's user: --version, then a
// whole league headless.
func TestImage(t *testing.T) {
	binary := staticLeaguetui(t)
	img, err := Build(Options{Binary: binary, CACerts: "/etc/ssl/certs/ca-certificates.crt", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	tarPath := filepath.Join(t.TempDir(), "image.tar")
	if err := tarball.WriteToFile(tarPath, name.MustParseReference("leaguetui:test"), img); err != nil {
		t.Fatal(err)
	}
	loaded, err := tarball.ImageFromPath(tarPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := loaded.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Config.User != "65532:65532" || strings.Join(cfg.Config.Entrypoint, " ") != BinaryPath || cfg.OS != "linux" {
		t.Errorf("config: user %q, entrypoint %q, os %q; want a non-root user and leaguetui as the entry point", cfg.Config.User, cfg.Config.Entrypoint, cfg.OS)
	}

	root := filepath.Join(t.TempDir(), "rootfs")
	unpack(t, loaded, root)
	for _, p := range []string{BinaryPath, CAPath, "/etc/passwd"} {
		if !fileExists(filepath.Join(root, p)) {
			t.Errorf("the image has no %s", p)
		}
	}

	if os.Geteuid() != 0 {
		skipWithout(t, "running the image's binary in a chroot needs root")
	}
	for _, tool := range []string{"unshare", "chroot", "mount"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipWithout(t, tool+" (util-linux, coreutils) is needed to run the image's binary in a chroot")
		}
	}
	if out, err := inImage(t, root, 30*time.Second, "--version"); err != nil || !strings.HasPrefix(out, "leaguetui ") {
		t.Fatalf("--version in the image: %v\n%s", err, out)
	}
	out, err := inImage(t, root, 3*time.Minute, "--no-ui", "--free-ports", "--players", "2", "--referees", "1", "--seed", "1", "--data", DataDir+"/smoke")
	if err != nil || !strings.Contains(out, "rank") || !strings.Contains(out, "completed") {
		t.Fatalf("a league in the image: %v\n%s", err, out)
	}
	if !hasFileUnder(filepath.Join(root, DataDir, "smoke"), "standings.json") {
		t.Errorf("the league in the image wrote no standings under %s", DataDir)
	}
}

// inImage runs the image's leaguetui with args in a chroot of root, as the
// image's user, in a mount namespace of its own where /proc and /dev are
// mounted as a container engine would (leaguetui finds itself through
// /proc/self/exe to start its agents).
func inImage(t *testing.T, root string, timeout time.Duration, args ...string) (string, error) {
	t.Helper()
	script := `set -e; r="$1"; shift; mkdir -p "$r/proc" "$r/dev"; mount -t proc proc "$r/proc"; mount --rbind /dev "$r/dev"; ` +
		`exec chroot --userspec=65532:65532 "$r" ` + BinaryPath + ` "$@"`
	cmd := exec.Command("unshare", append([]string{"--mount", "--propagation", "private", "--fork", "sh", "-c", script, "sh", root}, args...)...)
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME=" + DataDir}
	cmd.WaitDelay = 5 * time.Second
	done := make(chan struct{})
	timer := time.AfterFunc(timeout, func() {
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
		}
		close(done)
	})
	defer timer.Stop()
	out, err := cmd.CombinedOutput()
	select {
	case <-done:
		return string(out), errors.New("timed out")
	default:
	}
	return string(out), err
}

// unpack writes the image's file system under root, owners and modes
// kept, as a container engine lays it out.
func unpack(t *testing.T, img v1.Image, root string) {
	t.Helper()
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(root, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(target, os.FileMode(h.Mode).Perm())
		case tar.TypeReg:
			err = writeFile(target, tr, os.FileMode(h.Mode).Perm())
		default:
			t.Fatalf("unexpected entry %s of type %c in the image", h.Name, h.Typeflag)
		}
		if err == nil {
			err = os.Chmod(target, os.FileMode(h.Mode&0o777)|modeBits(h.Mode))
		}
		if err == nil && os.Geteuid() == 0 {
			err = os.Lchown(target, h.Uid, h.Gid)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(path string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// modeBits carries the sticky bit of /tmp over from the tar header.
func modeBits(mode int64) os.FileMode {
	if mode&0o1000 != 0 {
		return os.ModeSticky
	}
	return 0
}

// hasFileUnder reports whether a file named base lies anywhere under dir.
func hasFileUnder(dir, base string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == base {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}
