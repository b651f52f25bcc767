package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/gameprog"
)

// useGameProgram makes the game program the config names (--game
// FILE.json, or the config folder's games/<game>.json) a game of this
// process, for every command: the manager knows its name, the players
// its random strategy, the referees how to run it.
func useGameProgram(cfg config.Config) error {
	if cfg.GameFile == "" {
		return nil
	}
	m, err := config.LoadGameManifest(cfg.GameFile)
	if err != nil {
		return badSettings(err)
	}
	_, err = gameprog.Register(m)
	return badSettings(err)
}

// refereeRunsGames tells the league's game program, if it plays one,
// where this referee runs it: the sandbox through this executable, each
// match's output in logs/games/<league>/ of the data folder, and none of
// the data folder, the config folder or the key files readable.
func refereeRunsGames(cfg config.Config, dataDir string) error {
	g, ok := engine.LookupGame(cfg.GameType)
	game, program := g.(*gameprog.Game)
	if !ok || !program {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	data, err := filepath.Abs(dataDir)
	if err != nil {
		return err
	}
	hide := []string{data}
	secrets := []string{cfg.Security.RefereeKeyFile, cfg.Security.AdminTokenFile, cfg.Network.TLSKey, cfg.Player.LLM.APIKeyFile}
	if cfg.Dir != "" && !within(cfg.GameFile, cfg.Dir) {
		secrets = append(secrets, cfg.Dir) // a game of the config folder's games/ reads its own folder
	}
	for _, s := range secrets {
		if abs, err := filepath.Abs(s); err == nil && s != "" {
			hide = append(hide, abs)
		}
	}
	game.SetSite(gameprog.Site{Shim: exe, LogDir: filepath.Join(data, "logs", "games", cfg.LeagueID), Hide: hide})
	return nil
}

// within says path lies in dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
