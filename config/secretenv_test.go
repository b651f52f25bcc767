package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretEnv: a secret's variable wins, else the file its _FILE variable
// names (trimmed); a named file that is missing or empty is an error naming
// the variable; the referee key reads its _FILE variable before the config
// folder's file.
func TestSecretEnv(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "token")
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(full, []byte("  from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	envOf := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

	tests := []struct {
		vars    map[string]string
		want    string
		wantErr string
	}{
		{map[string]string{AdminTokenEnv: "from-env", AdminTokenEnv + FileSuffix: full}, "from-env", ""},
		{map[string]string{AdminTokenEnv + FileSuffix: full}, "from-file", ""},
		{map[string]string{}, "", ""},
		{map[string]string{AdminTokenEnv + FileSuffix: empty}, "", "LEAGUETUI_ADMIN_TOKEN_FILE"},
		{map[string]string{AdminTokenEnv + FileSuffix: filepath.Join(dir, "missing")}, "", "LEAGUETUI_ADMIN_TOKEN_FILE"},
	}
	for _, tt := range tests {
		got, err := SecretEnv(envOf(tt.vars), AdminTokenEnv)
		if got != tt.want || (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%v: %q, %v; want %q and an error naming %q", tt.vars, got, err, tt.want, tt.wantErr)
		}
	}
	key, err := Default().RefereeKey(envOf(map[string]string{RefereeKeyEnv + FileSuffix: full}))
	if key != "from-file" || err != nil {
		t.Errorf("referee key from LEAGUETUI_REFEREE_KEY_FILE: %q, %v; want from-file", key, err)
	}
}
