package engine

// ProgramGame is a game played by a program outside leaguetui, named by
// a manifest (a game program): registered at start-up, not built in.
type ProgramGame interface {
	Game
	// Manifest is the path of the game's manifest.
	Manifest() string
}

// IsProgramGame says the registered game of that wire type is a game
// program's.
func IsProgramGame(gameType string) bool {
	g, ok := LookupGame(gameType)
	if !ok {
		return false
	}
	_, program := g.(ProgramGame)
	return program
}
