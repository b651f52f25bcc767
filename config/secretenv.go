package config

import (
	"fmt"
	"strings"
)

// AdminTokenEnv names the environment variable that holds a manager's admin
// token, the one the console presents to start, pause, resume and stop.
const AdminTokenEnv = "LEAGUETUI_ADMIN_TOKEN"

// FileSuffix turns a secret's variable into the one naming a file that holds
// it: LEAGUETUI_ADMIN_TOKEN_FILE, LEAGUETUI_REFEREE_KEY_FILE. Container
// engines hand secrets over as files (/run/secrets/NAME), and an image with
// no shell cannot read one into a variable itself.
const FileSuffix = "_FILE"

// SecretEnv is the secret of the variable name: its value when set, else
// the content of the file that name+"_FILE" names, without surrounding white
// space; "" when neither is set. A named file that cannot be read or holds
// nothing is an error naming the variable, since the operator meant the
// secret to be there.
func SecretEnv(getenv func(string) string, name string) (string, error) {
	secret, _, err := secretEnv(getenv, name)
	return secret, err
}

// secretEnv is SecretEnv, saying where the secret came from: the
// variable, or the variable that names its file, with the file.
func secretEnv(getenv func(string) string, name string) (secret, from string, err error) {
	if v := getenv(name); v != "" {
		return v, name, nil
	}
	path := getenv(name + FileSuffix)
	if path == "" {
		return "", "", nil
	}
	secret, err = ReadSecretFile(path)
	if err != nil {
		return "", "", fmt.Errorf("%s%s: %w", name, FileSuffix, err)
	}
	return secret, name + FileSuffix + " (" + path + ")", nil
}

// AdminToken is the admin token the environment or the settings give:
// LEAGUETUI_ADMIN_TOKEN when set, else the content of the file that
// --admin-token-file (or LEAGUETUI_ADMIN_TOKEN_FILE) names; "" when
// neither says. The manager takes it as its token, the console presents
// it to a manager it attaches to, and a league leaguetui starts uses it
// instead of making one.
func (c Config) AdminToken(getenv func(string) string) (string, error) {
	token, _, err := c.adminToken(getenv)
	return token, err
}

// adminToken is AdminToken, saying where the token came from.
func (c Config) adminToken(getenv func(string) string) (token, from string, err error) {
	if token := getenv(AdminTokenEnv); token != "" {
		return token, AdminTokenEnv, nil
	}
	if c.Security.AdminTokenFile == "" {
		return "", "", nil
	}
	token, err = ReadSecretFile(c.Security.AdminTokenFile)
	if err != nil {
		return "", "", fmt.Errorf("--admin-token-file: %w", err)
	}
	return token, "--admin-token-file " + c.Security.AdminTokenFile, nil
}

// minSecretChars is the shortest admin token or referee key not warned
// about: a token leaguetui makes has 32 characters.
const minSecretChars = 16

// placeholderPrefix begins the values an example secrets file holds
// (deploy/kubernetes/secrets.env.example) for the operator to replace.
const placeholderPrefix = "change-me"

// WeakSecrets warns, a line each, about an admin token or a referee key
// that anyone could guess: an example's placeholder left as it was, or
// one shorter than 16 characters. Each line names where the secret came
// from, never the secret. They are used all the same: a weak secret is
// the operator's choice to make, said plainly. A secret that cannot be
// read is left to the command that reads it.
func (c Config) WeakSecrets(getenv func(string) string) []string {
	var warnings []string
	for _, read := range []func(func(string) string) (string, string, error){c.adminToken, c.refereeKey} {
		secret, from, err := read(getenv)
		if err != nil || secret == "" {
			continue
		}
		switch {
		case strings.HasPrefix(strings.ToLower(secret), placeholderPrefix):
			warnings = append(warnings, fmt.Sprintf("warning: %s is still the example's placeholder (%s…): replace it with a long random value, e.g. openssl rand -hex 24",
				from, placeholderPrefix))
		case len(secret) < minSecretChars:
			warnings = append(warnings, fmt.Sprintf("warning: %s is only %d of the %d characters or more a secret needs not to be guessed: use e.g. openssl rand -hex 24",
				from, len(secret), minSecretChars))
		}
	}
	return warnings
}
