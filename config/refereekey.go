package config

import (
	"fmt"
	"os"
	"strings"
)

// RefereeKeyEnv names the environment variable that holds the referee key
// a manager admits referees with, and that referees present.
const RefereeKeyEnv = "LEAGUETUI_REFEREE_KEY"

// RefereeKey is the league's referee key: LEAGUETUI_REFEREE_KEY when set
// (the environment overrides the config folder, as everywhere), or the file
// LEAGUETUI_REFEREE_KEY_FILE names (a container's secret), otherwise
// what the file named by system.json's security.referee_key_file holds,
// without surrounding white space; "" when neither says. A config folder
// names a file rather than holding the key, so that the folder can be
// shared, versioned or shown while the key stays in a file of its own
// (mode 0600). A named file that cannot be read, or holds nothing, is an
// error: the admin meant the league to have a key.
func (c Config) RefereeKey(getenv func(string) string) (string, error) {
	key, _, err := c.refereeKey(getenv)
	return key, err
}

// refereeKey is RefereeKey, saying where the key came from.
func (c Config) refereeKey(getenv func(string) string) (key, from string, err error) {
	if key, from, err := secretEnv(getenv, RefereeKeyEnv); key != "" || err != nil {
		return key, from, err
	}
	path := c.Security.RefereeKeyFile
	if path == "" {
		return "", "", nil
	}
	key, err = ReadSecretFile(path)
	if err != nil {
		return "", "", fmt.Errorf("the referee key file (security.referee_key_file): %w", err)
	}
	return key, "the referee key file " + path + " (security.referee_key_file)", nil
}

// ReadSecretFile reads a key or token from a file of its own: its content
// without surrounding white space. A file that holds nothing is an error:
// whoever named it meant there to be a secret.
func ReadSecretFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	secret := strings.TrimSpace(string(data))
	if secret == "" {
		return "", fmt.Errorf("%s is empty", path)
	}
	return secret, nil
}
