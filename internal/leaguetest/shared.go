package leaguetest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The leaguetui binary that Binary hands out is built once for the whole
// `go test ./...` run rather than once per package: every package of one
// checkout shares a folder in the user's cache, where `go build -o` of a
// binary that is up to date only checks it (a quarter of a second, against
// seven of linking a race-enabled leaguetui). A file lock lets one package
// build at a time.
//
// Two files, so that no running agent's binary is ever written over:
// `go build` keeps leaguetui.next up to date (it is never run), and when it
// changed it is copied beside and renamed onto the binary that is run, a
// rename leaving processes already started on the old file untouched.

// sharedBinary builds the leaguetui command into the shared folder, with
// -race when the tests run with -race, and returns the path to run.
func sharedBinary() (string, error) {
	dir, err := sharedBuildDir()
	if err != nil {
		return "", err
	}
	unlock, err := lockFile(filepath.Join(dir, "build.lock"))
	if err != nil {
		return "", fmt.Errorf("lock the shared test build in %s: %w", dir, err)
	}
	defer unlock()
	name := "leaguetui"
	if raceEnabled {
		name += "-race"
	}
	next, run := filepath.Join(dir, name+".next"), filepath.Join(dir, name)
	args := []string{"build", "-o", next}
	if raceEnabled {
		args = append(args, "-race")
	}
	if out, err := exec.Command(goTool(), append(args, MainPackage)...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", MainPackage, err, out)
	}
	return run, publish(next, run)
}

// sharedBuildDir is the folder this checkout's tests share, named after the
// checkout's folder so that two clones never share a binary.
func sharedBuildDir() (string, error) {
	out, err := exec.Command(goTool(), "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m: %w", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(string(out))))
	dir := filepath.Join(cache, "leaguetui-test", hex.EncodeToString(sum[:8]))
	return dir, os.MkdirAll(dir, 0o755)
}

// publish makes run a copy of built unless it already is one (same size and
// modification time): through a temporary file renamed onto run.
func publish(built, run string) error {
	from, err := os.Stat(built)
	if err != nil {
		return err
	}
	if to, err := os.Stat(run); err == nil && to.Size() == from.Size() && to.ModTime().Equal(from.ModTime()) {
		return nil
	}
	tmp := fmt.Sprintf("%s.%d", run, os.Getpid())
	if err := copyFile(built, tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chtimes(tmp, from.ModTime(), from.ModTime()); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, run)
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
