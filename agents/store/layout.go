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
	"strings"
)

// Layout names every path of the data folder (protocol.md §6), so no other code
// builds paths by hand and the layout can change in one place.
//
// Every id that becomes part of a path is checked here, against SafeName's
// one pattern, so that no caller can forget to: NewLayout checks the league
// id, and each method that takes an id (a match, player, agent) checks it and
// returns an error instead of a path when it is not safe. A hostile id from
// the network can then never name a file outside Root.
type Layout struct {
	Root     string // the data folder
	LeagueID string // the league whose files this layout names
}

// NewLayout is the layout of league leagueID in the data folder root; it
// fails if the league id cannot name a folder.
func NewLayout(root, leagueID string) (Layout, error) {
	l := Layout{Root: root, LeagueID: leagueID}
	return l, l.Validate()
}

// leaguePath joins the layout's league folder under dir with an id's file,
// once both ids are known to be safe.
func (l Layout) leaguePath(dir, id, suffix string) (string, error) {
	if err := l.Validate(); err != nil {
		return "", err
	}
	return named(id, func() string { return filepath.Join(l.Root, dir, l.LeagueID, id+suffix) })
}

// named returns path() once id is known to be safe in it.
func named(id string, path func() string) (string, error) {
	if err := SafeName(id); err != nil {
		return "", err
	}
	return path(), nil
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
func (l Layout) Match(matchID string) (string, error) {
	return l.leaguePath("matches", matchID, ".json")
}

// PlayerHistory is a player's own record of its matches. It is not per league:
// a player keeps one history across leagues.
func (l Layout) PlayerHistory(playerID string) (string, error) {
	return named(playerID, func() string { return filepath.Join(l.Root, "players", playerID, "history.json") })
}

// Credentials is where an agent keeps the id and token the manager issued
// it, so that a restarted agent registers again as itself. It is the one
// file of the data folder that holds a secret: private to its owner.
func (l Layout) Credentials(agentName string) (string, error) {
	return l.leaguePath("credentials", agentName, ".json")
}

// LeagueLog is the league manager's JSON-lines log.
func (l Layout) LeagueLog() string {
	return filepath.Join(l.Root, "logs", "league", l.LeagueID, "league.log.jsonl")
}

// AgentLog is one agent's JSON-lines log, e.g. logs/agents/P01.log.jsonl.
func (l Layout) AgentLog(agentID string) (string, error) {
	return named(agentID, func() string { return filepath.Join(l.Root, "logs", "agents", agentID+".log.jsonl") })
}

// AdminToken is the admin token of a league leaguetui started, written
// readable by its owner only, for a second console to control it.
func (l Layout) AdminToken() string {
	return filepath.Join(l.Root, "admin.token")
}

// SystemDir is the folder of the logs that belong to no agent: the
// console's, the orchestrator's, and the child processes' output.
func (l Layout) SystemDir() string {
	return filepath.Join(l.Root, "logs", "system")
}

// ConsoleLog is <root>/logs/system/console.log.jsonl: the console owns the
// screen, so its log goes here.
func (l Layout) ConsoleLog() string {
	return filepath.Join(l.SystemDir(), "console.log.jsonl")
}

// SystemLog is the orchestrator's JSON-lines log.
func (l Layout) SystemLog() string {
	return filepath.Join(l.SystemDir(), "orchestrator.log.jsonl")
}

// ProcessOutput is where a child process's stderr goes, so that a crash's
// last words are kept beside the structured logs.
func (l Layout) ProcessOutput(name string) (string, error) {
	return named(name, func() string { return filepath.Join(l.SystemDir(), name+".out") })
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
const maxNameLen = 64

// IDPattern is the one pattern every id that reaches a path must match
// (league, match, player, referee, agent names), with no ".." anywhere.
const IDPattern = `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`

// SafeName reports whether id matches IDPattern and holds no "..". Ids come
// from the network, so a hostile id must neither climb out of the data
// folder, nor name a folder or a hidden file, nor be long enough to fail
// a file system's name limit.
func SafeName(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty", ErrUnsafeName)
	case len(id) > maxNameLen:
		return fmt.Errorf("%w: %q is longer than %d bytes", ErrUnsafeName, id[:maxNameLen]+"…", maxNameLen)
	case !alnum(id[0]):
		return fmt.Errorf("%w: %q must start with a letter or digit (pattern %s)", ErrUnsafeName, id, IDPattern)
	case strings.Contains(id, ".."):
		return fmt.Errorf("%w: %q holds \"..\"", ErrUnsafeName, id)
	}
	for i := 0; i < len(id); i++ {
		if !nameByte(id[i]) {
			return fmt.Errorf("%w: %q has %q at byte %d (pattern %s)", ErrUnsafeName, id, id[i], i, IDPattern)
		}
	}
	return nil
}

func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func nameByte(c byte) bool {
	return alnum(c) || c == '_' || c == '.' || c == '-'
}

// CheckWritable makes sure dir exists and takes a file, so that an agent
// says at start, in so many words, that its data folder is unusable.
func CheckWritable(dir string) error {
	if err := CheckFolderWritable(dir); err != nil {
		return fmt.Errorf("data folder %s is %w", dir, err)
	}
	return nil
}

// CheckFolderWritable makes sure dir exists (making it if need be) and
// takes a file; its error says "not writable: why".
func CheckFolderWritable(dir string) error {
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("not writable: %w", err)
	}
	probe, err := os.CreateTemp(dir, ".writable-*")
	if err != nil {
		return fmt.Errorf("not writable: %w", err)
	}
	name := probe.Name()
	_, err = probe.Write([]byte("ok\n"))
	if cerr := probe.Close(); err == nil {
		err = cerr
	}
	os.Remove(name)
	if err != nil {
		return fmt.Errorf("not writable: %w", err)
	}
	return nil
}

// Lock is the data folder's lock file: whoever holds an exclusive flock on
// it owns the folder (see LockDataFolder).
func (l Layout) Lock() string {
	return filepath.Join(l.Root, "leaguetui.lock")
}
