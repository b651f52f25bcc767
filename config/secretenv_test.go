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
		{map[string]string{RefereeKeyEnv: "from-env", RefereeKeyEnv + FileSuffix: full}, "from-env", ""},
		{map[string]string{RefereeKeyEnv + FileSuffix: full}, "from-file", ""},
		{map[string]string{}, "", ""},
		{map[string]string{RefereeKeyEnv + FileSuffix: empty}, "", "LEAGUETUI_REFEREE_KEY_FILE"},
		{map[string]string{RefereeKeyEnv + FileSuffix: filepath.Join(dir, "missing")}, "", "LEAGUETUI_REFEREE_KEY_FILE"},
	}
	for _, tt := range tests {
		got, err := SecretEnv(envOf(tt.vars), RefereeKeyEnv)
		if got != tt.want || (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%v: %q, %v; want %q and an error naming %q", tt.vars, got, err, tt.want, tt.wantErr)
		}
	}
	key, err := Default().RefereeKey(envOf(map[string]string{RefereeKeyEnv + FileSuffix: full}))
	if key != "from-file" || err != nil {
		t.Errorf("referee key from LEAGUETUI_REFEREE_KEY_FILE: %q, %v; want from-file", key, err)
	}
}

// TestAdminToken: LEAGUETUI_ADMIN_TOKEN wins, else the file the settings'
// admin_token_file names; a named file that is empty is an error naming
// --admin-token-file.
func TestAdminToken(t *testing.T) {
	dir := t.TempDir()
	file, empty := filepath.Join(dir, "admin.token"), filepath.Join(dir, "empty")
	if err := os.WriteFile(file, []byte("adm-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == AdminTokenEnv {
			return "adm-env"
		}
		return ""
	}
	noEnv := func(string) string { return "" }
	cfg := Default()
	cfg.Security.AdminTokenFile = file
	if got, err := cfg.AdminToken(env); got != "adm-env" || err != nil {
		t.Errorf("with the variable set: %q, %v", got, err)
	}
	if got, err := cfg.AdminToken(noEnv); got != "adm-file" || err != nil {
		t.Errorf("from the file: %q, %v", got, err)
	}
	cfg.Security.AdminTokenFile = empty
	if _, err := cfg.AdminToken(noEnv); err == nil || !strings.Contains(err.Error(), "--admin-token-file") {
		t.Errorf("an empty file: %v; want an error naming --admin-token-file", err)
	}
	if got, err := Default().AdminToken(noEnv); got != "" || err != nil {
		t.Errorf("neither: %q, %v", got, err)
	}
}
