package leaguetest

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/leaguetui/leaguetui/agents/launch"
)

// BadPlayerPackage is the import path of the misbehaving test player.
const BadPlayerPackage = "github.com/leaguetui/leaguetui/internal/leaguetest/badplayer"

var (
	badOnce sync.Once
	badPath string
	badErr  error
)

// BadPlayerBinary returns the path of the badplayer program, built like
// Binary the first time a test asks for it.
func BadPlayerBinary(t testing.TB) string {
	t.Helper()
	badOnce.Do(func() { badPath, badErr = build(BadPlayerPackage, "badplayer") })
	if badErr != nil {
		t.Fatal(badErr)
	}
	return badPath
}

// StartBadPlayer runs a player that misbehaves in the given mode (see the
// badplayer program) on a free port, registered with managerURL, until the
// test ends.
func StartBadPlayer(t testing.TB, dataDir, managerURL, name, mode string, args ...string) *launch.Child {
	t.Helper()
	all := append([]string{"--manager", managerURL, "--name", name, "--mode", mode}, args...)
	return StartProgram(t, BadPlayerBinary(t), "badplayer "+name, filepath.Join(dataDir, "test-output"), true, nil, all...)
}
