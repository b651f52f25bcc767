package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/engine"
)

// GameManifest is a game program's manifest (docs/games.md, "Writing a
// game"): a game written in any language, which each referee starts for
// a match and drives over its standard input and output.
type GameManifest struct {
	// Name is the game's wire type (game_type), e.g. "tic_tac_toe".
	Name string `json:"name"`
	// Command starts the program, run in the manifest's folder: a first
	// word with a slash is a path from that folder, any other a program
	// on PATH; the other words are its arguments.
	Command []string `json:"command"`
	// Rules is the game's rules in words, what a model player is told.
	Rules string `json:"rules"`
	// Seats is how many players a match seats: 2.
	Seats int `json:"seats"`
	// Deadlines bound the players' moves and the program's answers.
	Deadlines GameDeadlines `json:"deadlines"`
	// Options are the game's own settings, handed to the program as they
	// are at the start of every match.
	Options map[string]any `json:"options,omitempty"`
	// Limits cap the program (0: GameProgramLimits).
	Limits ProgramLimits `json:"limits"`

	// Dir is the manifest's folder, absolute, where the program runs.
	Dir string `json:"-"`
	// Path is the manifest's own path, absolute.
	Path string `json:"-"`
}

// GameDeadlines are a game program's deadlines, in seconds (fractions
// allowed); 0 is the default.
type GameDeadlines struct {
	// MoveSeconds is the players' move deadline in this game (0: the
	// league's, --move-timeout).
	MoveSeconds float64 `json:"move_seconds,omitempty"`
	// StartSeconds is how long the program may take to start and answer
	// the start of a match (default 10).
	StartSeconds float64 `json:"start_seconds,omitempty"`
	// AnswerSeconds is how long it may take to answer every other message
	// (default 5).
	AnswerSeconds float64 `json:"answer_seconds,omitempty"`
}

// The defaults of a game program's deadlines.
const (
	DefaultGameStart  = 10 * time.Second
	DefaultGameAnswer = 5 * time.Second
	maxGameDeadline   = 10 * time.Minute
)

// GameProgramLimits are a game program's limits where its manifest sets
// none: an interpreter and a board, not a flood.
var GameProgramLimits = ProgramLimits{MemoryMB: 512, CPUSeconds: 600, Processes: 64, FileMB: 16, DiskMB: 64}

// Start is the program's deadline to answer a match's start.
func (d GameDeadlines) Start() time.Duration { return seconds(d.StartSeconds, DefaultGameStart) }

// Answer is the program's deadline for every later answer.
func (d GameDeadlines) Answer() time.Duration { return seconds(d.AnswerSeconds, DefaultGameAnswer) }

// Move is the players' move deadline the manifest asks for; 0 if none.
func (d GameDeadlines) Move() time.Duration { return seconds(d.MoveSeconds, 0) }

func seconds(s float64, def time.Duration) time.Duration {
	if s <= 0 {
		return def
	}
	return time.Duration(s * float64(time.Second))
}

// EffectiveLimits are the manifest's limits, GameProgramLimits where it
// sets none.
func (m GameManifest) EffectiveLimits() ProgramLimits {
	l, d := m.Limits, GameProgramLimits
	pick := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	return ProgramLimits{MemoryMB: pick(l.MemoryMB, d.MemoryMB), CPUSeconds: pick(l.CPUSeconds, d.CPUSeconds),
		Processes: pick(l.Processes, d.Processes), FileMB: pick(l.FileMB, d.FileMB), DiskMB: pick(l.DiskMB, d.DiskMB)}
}

// IsGameFile says a --game value names a manifest rather than a game:
// it ends in .json.
func IsGameFile(game string) bool { return strings.HasSuffix(game, ".json") }

// gameName is what a game program may call itself: a wire type.
var gameName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// LoadGameManifest reads and checks the manifest at path. An unknown key
// is refused, so that a misspelt deadline never runs on a default.
func LoadGameManifest(path string) (GameManifest, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return GameManifest{}, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return GameManifest{}, fmt.Errorf("game manifest %s: %w", abs, err)
	}
	var m GameManifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return GameManifest{}, fmt.Errorf("game manifest %s: %w", abs, err)
	}
	m.Path, m.Dir = abs, filepath.Dir(abs)
	if err := m.check(); err != nil {
		return GameManifest{}, fmt.Errorf("game manifest %s: %w", abs, err)
	}
	return m, nil
}

// check refuses a manifest leaguetui could not run.
func (m GameManifest) check() error {
	var errs []error
	if !gameName.MatchString(m.Name) {
		errs = append(errs, fmt.Errorf("name %q: want a wire type of lower-case letters, digits and _, such as tic_tac_toe", m.Name))
	}
	if _, builtin := engine.LookupGame(m.Name); builtin && !engine.IsProgramGame(m.Name) {
		errs = append(errs, fmt.Errorf("name %q is a built-in game's: choose another", m.Name))
	}
	if len(m.Command) == 0 || strings.TrimSpace(m.Command[0]) == "" {
		errs = append(errs, errors.New("command: want the program and its arguments, e.g. [\"python3\", \"game.py\"]"))
	}
	if strings.TrimSpace(m.Rules) == "" {
		errs = append(errs, errors.New("rules: want the game's rules in words, what a model player is told"))
	}
	if m.Seats != 2 {
		errs = append(errs, fmt.Errorf("seats %d: leaguetui plays games of 2 seats", m.Seats))
	}
	d := m.Deadlines
	for key, s := range map[string]float64{"move_seconds": d.MoveSeconds, "start_seconds": d.StartSeconds, "answer_seconds": d.AnswerSeconds} {
		if s < 0 || time.Duration(s*float64(time.Second)) > maxGameDeadline {
			errs = append(errs, fmt.Errorf("deadlines.%s %v: want 0 (the default) to %v", key, s, maxGameDeadline.Seconds()))
		}
	}
	l := m.Limits
	if l.MemoryMB < 0 || l.CPUSeconds < 0 || l.Processes < 0 || l.FileMB < 0 || l.DiskMB < 0 {
		errs = append(errs, errors.New("limits: want numbers of 0 (the default) or more"))
	}
	return errors.Join(errs...)
}

// useGameFile makes c play the game of the manifest at path.
func (c *Config) useGameFile(path string) error {
	m, err := LoadGameManifest(path)
	if err != nil {
		return err
	}
	c.GameType, c.GameFile = m.Name, m.Path
	if move := m.Deadlines.Move(); move > 0 {
		c.Timeouts.Move = move
	}
	return nil
}

// resolveGameFile finds the manifest of a game the flags did not name
// by file: a game_type of the config folder that ends in .json (a path
// from that folder, else from the working one), or a name that is no
// built-in game's and has a manifest games/<name>.json in the config
// folder.
func (c *Config) resolveGameFile() error {
	if c.GameFile != "" {
		return nil
	}
	game := c.GameType
	if IsGameFile(game) {
		path := game
		if inFolder := filepath.Join(c.Dir, game); c.Dir != "" && !filepath.IsAbs(game) {
			if _, err := os.Stat(inFolder); err == nil {
				path = inFolder
			}
		}
		return c.useGameFile(path)
	}
	if _, builtin := engine.LookupGame(game); (builtin && !engine.IsProgramGame(game)) || c.Dir == "" || !gameName.MatchString(game) {
		return nil
	}
	path := filepath.Join(c.Dir, "games", game+".json")
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return c.useGameFile(path)
}
