package config

import "fmt"

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
	if v := getenv(name); v != "" {
		return v, nil
	}
	path := getenv(name + FileSuffix)
	if path == "" {
		return "", nil
	}
	secret, err := ReadSecretFile(path)
	if err != nil {
		return "", fmt.Errorf("%s%s: %w", name, FileSuffix, err)
	}
	return secret, nil
}

// AdminToken is the admin token the environment or the settings give:
// LEAGUETUI_ADMIN_TOKEN when set, else the content of the file that
// --admin-token-file (or LEAGUETUI_ADMIN_TOKEN_FILE) names; "" when
// neither says. The manager takes it as its token, the console presents
// it to a manager it attaches to, and a league leaguetui starts uses it
// instead of making one.
func (c Config) AdminToken(getenv func(string) string) (string, error) {
	if token := getenv(AdminTokenEnv); token != "" {
		return token, nil
	}
	if c.Security.AdminTokenFile == "" {
		return "", nil
	}
	token, err := ReadSecretFile(c.Security.AdminTokenFile)
	if err != nil {
		return "", fmt.Errorf("--admin-token-file: %w", err)
	}
	return token, nil
}
