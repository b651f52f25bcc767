package store

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// JoinCodes are the join codes of a roster's external players, by name:
// the organiser hands each to its entry's author, and the manager admits
// that name only with it. They are kept in the data folder
// (Layout.JoinCodes), readable by its owner only.
type JoinCodes map[string]string

// JoinCodes is where a league leaguetui started keeps its external
// players' join codes, beside the admin token, mode 0600.
func (l Layout) JoinCodes() string {
	return filepath.Join(l.Root, "join-codes.json")
}

// LoadJoinCodes reads the join codes at path; a missing file is none.
func LoadJoinCodes(path string) (JoinCodes, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return JoinCodes{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("join codes: %w", err)
	}
	codes := JoinCodes{}
	if err := json.Unmarshal(data, &codes); err != nil {
		return nil, fmt.Errorf("join codes: %s is not a JSON object of names and codes: %w", path, err)
	}
	for _, code := range codes {
		Redact(code)
	}
	return codes, nil
}

// EnsureJoinCodes gives each of names a join code in the file at path:
// the one it already has there (an earlier run of the same league's, which
// its author may already hold), else a new random one. It writes the file,
// private to its owner, when it adds any, and returns the codes of names.
func EnsureJoinCodes(path string, names []string) (JoinCodes, error) {
	kept, err := LoadJoinCodes(path)
	if err != nil {
		return nil, err
	}
	codes, added := JoinCodes{}, false
	for _, name := range names {
		if code, ok := kept.Lookup(name); ok {
			codes[name] = code
			continue
		}
		code, err := newJoinCode()
		if err != nil {
			return nil, err
		}
		codes[name], kept[name], added = code, code, true
	}
	if !added {
		return codes, nil
	}
	err = writeAtomic(path, IndentedJSON(func() any { return kept }), secretFilePerm, dirPerm)
	if err != nil {
		return nil, fmt.Errorf("cannot write the join codes: %w", err)
	}
	return codes, nil
}

// Lookup is name's join code, names being display names, unique
// whatever their case.
func (c JoinCodes) Lookup(name string) (string, bool) {
	for n, code := range c {
		if strings.EqualFold(n, name) {
			return code, true
		}
	}
	return "", false
}

// newJoinCode is 16 random bytes (128 bits) in hex: a secret no one
// guesses in any number of registrations.
func newJoinCode() (string, error) {
	buf := make([]byte, 16)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	code := "join-" + hex.EncodeToString(buf)
	Redact(code)
	return code, nil
}

// ForgetJoinCodes removes names' codes from the file at path, if it holds
// any: an entry its organiser now lets register without a code
// ("join_code": false) must not be refused for lack of one an earlier run
// made. The file is rewritten only when it changes.
func ForgetJoinCodes(path string, names []string) error {
	kept, err := LoadJoinCodes(path)
	if err != nil {
		return err
	}
	removed := false
	for _, name := range names {
		for n := range kept {
			if strings.EqualFold(n, name) {
				delete(kept, n)
				removed = true
			}
		}
	}
	if !removed {
		return nil
	}
	if err := writeAtomic(path, IndentedJSON(func() any { return kept }), secretFilePerm, dirPerm); err != nil {
		return fmt.Errorf("cannot write the join codes: %w", err)
	}
	return nil
}
