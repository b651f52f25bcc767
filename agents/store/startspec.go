package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// StartSpec is how the league in a data folder was started: the flags
// that shape it (roster, game, format, games per pair, open seats, ports,
// seed, …) as leaguetui took them, so that `leaguetui --no-ui --data DIR`
// and the console resume it without any of them repeated.
type StartSpec struct {
	// Args are the flags, each "--name" followed by its value (booleans
	// as "--name=true"), paths made absolute: given on a later command
	// line before the user's own, they start the same league.
	Args []string `json:"args"`
}

// StartSpecFile is where the data folder keeps its StartSpec.
func StartSpecFile(root string) string {
	return filepath.Join(root, "league-start.json")
}

// SaveStartSpec writes the folder's StartSpec atomically.
func SaveStartSpec(root string, s StartSpec) error {
	return WriteJSON(StartSpecFile(root), s)
}

// LoadStartSpec reads the folder's StartSpec; ok is false when the folder
// has none (a new folder, or one written before leaguetui kept it).
func LoadStartSpec(root string) (s StartSpec, ok bool, err error) {
	data, err := os.ReadFile(StartSpecFile(root))
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		// No folder (yet), or a file where it should be: the check that the
		// folder is writable says so, naming it.
		return StartSpec{}, false, nil
	}
	if err != nil {
		return StartSpec{}, false, fmt.Errorf("store: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return StartSpec{}, false, fmt.Errorf("store: %s is not a league start file: %w", StartSpecFile(root), err)
	}
	return s, true, nil
}
