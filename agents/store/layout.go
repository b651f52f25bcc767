// Package store keeps the league's state in the data folder (protocol.md §6):
// where every file lives, how JSON files are replaced without ever being seen
// half-written, the append-only journal that is the league's source of truth,
// and the JSON-lines loggers that never let a token reach a log line.
package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Layout names every path of the data folder (protocol.md §6), so no other code
// builds paths by hand and the layout can change in one place.
//
// Layout does not check the ids it is given: ids that come from the network
// must pass SafeName first, or a hostile id could name a file outside Root.
type Layout struct {
	Root     string // the data folder
	LeagueID string // the league whose files this layout names
}

// LeagueDir is the folder of the league's own files: <root>/leagues/<league>.
func (l Layout) LeagueDir() string {
	return filepath.Join(l.Root, "leagues", l.LeagueID)
}

// Standings is the standings table the manager rewrites after each report.
func (l Layout) Standings() string {
	return filepath.Join(l.LeagueDir(), "standings.json")
}

// Rounds is the schedule with each round's status and results.
func (l Layout) Rounds() string {
	return filepath.Join(l.LeagueDir(), "rounds.json")
}

// LeagueInfo holds what a restarted manager needs besides the journal: the
// seed, the players and the referees. It never holds tokens.
func (l Layout) LeagueInfo() string {
	return filepath.Join(l.LeagueDir(), "league.json")
}

// Journal is the league's append-only event journal, its source of truth.
func (l Layout) Journal() string {
	return filepath.Join(l.LeagueDir(), "journal.jsonl")
}

// MatchesDir is the folder of the league's match files. The specification puts
// matches under a league sub-folder, unlike leagues/ and players/.
func (l Layout) MatchesDir() string {
	return filepath.Join(l.Root, "matches", l.LeagueID)
}

// Match is one match's file with its transcript, written by its referee.
func (l Layout) Match(matchID string) string {
	return filepath.Join(l.MatchesDir(), matchID+".json")
}

// PlayerHistory is a player's own record of its matches. It is not per league:
// a player keeps one history across leagues.
func (l Layout) PlayerHistory(playerID string) string {
	return filepath.Join(l.Root, "players", playerID, "history.json")
}

// Credentials is where an agent keeps the id and token the manager issued
// it, so that a restarted agent registers again as itself. It is the one
// file of the data folder that holds a secret: private to its owner.
func (l Layout) Credentials(agentName string) string {
	return filepath.Join(l.Root, "credentials", l.LeagueID, agentName+".json")
}

// LeagueLog is the league manager's JSON-lines log.
func (l Layout) LeagueLog() string {
	return filepath.Join(l.Root, "logs", "league", l.LeagueID, "league.log.jsonl")
}

// AgentLog is one agent's JSON-lines log, e.g. logs/agents/P01.log.jsonl.
func (l Layout) AgentLog(agentID string) string {
	return filepath.Join(l.Root, "logs", "agents", agentID+".log.jsonl")
}

// ConsoleLog is <root>/logs/system/console.log.jsonl: the console owns the
// screen, so its log goes here.
func (l Layout) ConsoleLog() string {
	return filepath.Join(l.Root, "logs", "system", "console.log.jsonl")
}

// SystemLog is the orchestrator's JSON-lines log.
func (l Layout) SystemLog() string {
	return filepath.Join(l.Root, "logs", "system", "orchestrator.log.jsonl")
}

// ProcessOutput is where a child process's stderr goes, so that a crash's
// last words are kept beside the structured logs.
func (l Layout) ProcessOutput(name string) string {
	return filepath.Join(l.Root, "logs", "system", name+".out")
}

// Validate reports whether the layout's league id is safe to use in paths.
func (l Layout) Validate() error {
	if l.Root == "" {
		return errors.New("store: layout has no root folder")
	}
	if err := SafeName(l.LeagueID); err != nil {
		return fmt.Errorf("league id: %w", err)
	}
	return nil
}

// ErrUnsafeName is wrapped by every error SafeName returns.
var ErrUnsafeName = errors.New("store: unsafe name")

// maxNameLen keeps a name, plus the suffixes Layout adds, well inside the
// 255-byte file name limit of common file systems.
const maxNameLen = 128

// SafeName reports whether id may be used as one path element. Ids come from
// the network, so only [A-Za-z0-9_.-] is allowed, and "." and ".." are
// rejected: a hostile id can then neither climb out of the data folder nor
// name a folder instead of a file.
func SafeName(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty", ErrUnsafeName)
	case id == "." || id == "..":
		return fmt.Errorf("%w: %q", ErrUnsafeName, id)
	case len(id) > maxNameLen:
		return fmt.Errorf("%w: longer than %d bytes", ErrUnsafeName, maxNameLen)
	}
	for i := 0; i < len(id); i++ {
		if !nameByte(id[i]) {
			return fmt.Errorf("%w: %q has %q at byte %d (allowed: A-Z a-z 0-9 _ . -)", ErrUnsafeName, id, id[i], i)
		}
	}
	return nil
}

func nameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '.' || c == '-'
}

// CheckWritable makes sure dir exists and takes a file, so that an agent
// says at start, in so many words, that its data folder is unusable.
func CheckWritable(dir string) error {
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("data folder %s is not writable: %w", dir, err)
	}
	probe, err := os.CreateTemp(dir, ".writable-*")
	if err != nil {
		return fmt.Errorf("data folder %s is not writable: %w", dir, err)
	}
	name := probe.Name()
	_, err = probe.Write([]byte("ok\n"))
	if cerr := probe.Close(); err == nil {
		err = cerr
	}
	os.Remove(name)
	if err != nil {
		return fmt.Errorf("data folder %s is not writable: %w", dir, err)
	}
	return nil
}

// Lock is the data folder's lock file: whoever holds an exclusive flock on
// it owns the folder (see LockDataFolder).
func (l Layout) Lock() string {
	return filepath.Join(l.Root, "leaguetui.lock")
}
