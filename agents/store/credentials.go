package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/leaguetui/leaguetui/engine"
)

// Credentials are what registration issued to an agent. A restarted agent
// presents them when it registers again, and the manager that issued them
// gives it back its id (and a fresh token) even from a new endpoint: that
// is how a league interrupted and resumed keeps its players.
type Credentials struct {
	LeagueID  string      `json:"league_id"`
	AgentID   string      `json:"agent_id"`
	Role      engine.Role `json:"role"`
	AuthToken string      `json:"auth_token"`
}

// The credentials file and its folder are readable by their owner only.
const (
	secretFilePerm = 0o600
	secretDirPerm  = 0o700
)

// SaveCredentials writes c to path atomically, private to its owner.
func SaveCredentials(path string, c Credentials) error {
	return writeAtomic(path, IndentedJSON(func() any { return c }), secretFilePerm, secretDirPerm)
}

// LoadCredentials reads what SaveCredentials wrote. A missing file is not an
// error: ok is false and the agent registers as a newcomer.
func LoadCredentials(path string) (c Credentials, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Credentials{}, false, nil
	}
	if err != nil {
		return Credentials{}, false, fmt.Errorf("store: %w", err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return Credentials{}, false, fmt.Errorf("store: %s is not a credentials file: %w", path, err)
	}
	if c.AgentID == "" || c.AuthToken == "" {
		return Credentials{}, false, nil
	}
	Redact(c.AuthToken)
	return c, true, nil
}

// WriteSecret writes a secret (an admin token) to path atomically,
// readable by its owner only.
func WriteSecret(path, secret string) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := io.WriteString(w, secret+"\n")
		return err
	}, secretFilePerm, dirPerm)
}
