package engine

// ProgramGame is a game played by a program outside leaguetui, named by
// a manifest (a game program): registered at start-up, not built in.
type ProgramGame interface {
	Game
	// Manifest is the path of the game's manifest.
	Manifest() string
	// Rules is the game's rules in words, as its manifest gives them:
	// what a model player is told.
	Rules() string
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

// RulesOf is the rules in words of the registered game of that wire type,
// "" for a game that gives none (the built-in games, whose rules a model
// player is told by the prompt written for each).
func RulesOf(gameType string) string {
	g, ok := LookupGame(gameType)
	if !ok {
		return ""
	}
	if program, ok := g.(ProgramGame); ok {
		return program.Rules()
	}
	return ""
}
