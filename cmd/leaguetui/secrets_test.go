package main_test

import (
	"os"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/testcert"
)

// TestAdminTokenIsNeverAFlag: a token on the command line shows in every
// local user's ps, so --admin-token, in either spelling, is refused with
// one line saying how to pass it instead, exit status 2, before anything
// starts.
func TestAdminTokenIsNeverAFlag(t *testing.T) {
	for _, args := range [][]string{
		{"--attach", "http://127.0.0.1:1", "--admin-token", "adm-secret"},
		{"--admin-token=adm-secret", "--no-ui"},
	} {
		stdout, stderr, status := run(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if status != 2 || stdout != "" || len(lines) != 1 {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want status 2 and one line", args, status, stdout, stderr)
			continue
		}
		for _, want := range []string{"--admin-token", "LEAGUETUI_ADMIN_TOKEN", "--admin-token-file"} {
			if !strings.Contains(lines[0], want) {
				t.Errorf("%v: %q does not say %q", args, lines[0], want)
			}
		}
		if strings.Contains(lines[0], "adm-secret") {
			t.Errorf("%v: the refusal repeats the token: %q", args, lines[0])
		}
	}
}

// TestLooseTLSKeyIsWarned: a --tls-key that its group or other users may
// read is used, with one warning line on stderr naming the file and the
// fix; the same key readable by its owner only gets no warning. The
// command then fails on --players (exit 2), which shows the warning comes
// while the settings are read, before anything starts.
func TestLooseTLSKeyIsWarned(t *testing.T) {
	leaf := testcert.NewCA(t).Leaf(t, "agent", "127.0.0.1")
	args := []string{"--no-ui", "--players", "1", "--tls-cert", leaf.CertFile, "--tls-key", leaf.KeyFile}
	for _, tt := range []struct {
		mode os.FileMode
		warn bool
	}{{0o600, false}, {0o640, true}, {0o644, true}} {
		if err := os.Chmod(leaf.KeyFile, tt.mode); err != nil {
			t.Fatal(err)
		}
		_, stderr, status := run(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		warned := strings.Contains(stderr, "readable by other users")
		if status != 2 || warned != tt.warn || len(lines) != map[bool]int{false: 1, true: 2}[tt.warn] {
			t.Errorf("key mode %04o: status %d, stderr %q; want a warning: %v, then the --players line", tt.mode, status, stderr, tt.warn)
			continue
		}
		if tt.warn && (!strings.Contains(lines[0], leaf.KeyFile) || !strings.Contains(lines[0], "chmod 600")) {
			t.Errorf("key mode %04o: the warning %q names neither the file nor chmod 600", tt.mode, lines[0])
		}
	}
}
