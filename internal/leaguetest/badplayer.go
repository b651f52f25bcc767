package leaguetest

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/league/process"
)

// BadPlayerPackage is the import path of the misbehaving test player, and
// BadRefereePackage the one of the misbehaving test referee.
const (
	BadPlayerPackage  = "github.com/leaguetui/leaguetui/internal/leaguetest/badplayer"
	BadRefereePackage = "github.com/leaguetui/leaguetui/internal/leaguetest/badreferee"
)

var (
	badOnce sync.Once
	badPath string
	badErr  error

	badRefOnce sync.Once
	badRefPath string
	badRefErr  error
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
func StartBadPlayer(t testing.TB, dataDir, managerURL, name, mode string, args ...string) *process.Child {
	t.Helper()
	all := append([]string{"--manager", managerURL, "--name", name, "--mode", mode}, args...)
	return StartProgram(t, BadPlayerBinary(t), "badplayer "+name, filepath.Join(dataDir, "test-output"), true, nil, all...)
}

// StartExternalBadPlayer is StartBadPlayer for an external entry of the
// roster of the league in leagueData: it presents the entry's join code,
// read from the league's join-codes.json as its organiser would.
func StartExternalBadPlayer(t testing.TB, leagueData, managerURL, name, mode string) *process.Child {
	t.Helper()
	codes, err := store.LoadJoinCodes(store.Layout{Root: leagueData}.JoinCodes())
	if err != nil {
		t.Fatal(err)
	}
	code, ok := codes.Lookup(name)
	if !ok {
		t.Fatalf("no join code for %q in %s", name, leagueData)
	}
	return StartProgram(t, BadPlayerBinary(t), "badplayer "+name, filepath.Join(t.TempDir(), "test-output"), true,
		[]string{"LEAGUETUI_JOIN_CODE=" + code}, "--manager", managerURL, "--name", name, "--mode", mode)
}

// BadRefereeBinary returns the path of the badreferee program, built like
// Binary the first time a test asks for it.
func BadRefereeBinary(t testing.TB) string {
	t.Helper()
	badRefOnce.Do(func() { badRefPath, badRefErr = build(BadRefereePackage, "badreferee") })
	if badRefErr != nil {
		t.Fatal(badRefErr)
	}
	return badRefPath
}

// SandboxProbePackage is the import path of the program that tries every
// way out of the sandbox leaguetui starts programs in.
const SandboxProbePackage = "github.com/leaguetui/leaguetui/internal/leaguetest/sandboxprobe"

var (
	probeOnce sync.Once
	probePath string
	probeErr  error
)

// SandboxProbeBinary returns the path of the sandboxprobe program, built
// like Binary the first time a test asks for it.
func SandboxProbeBinary(t testing.TB) string {
	t.Helper()
	probeOnce.Do(func() { probePath, probeErr = build(SandboxProbePackage, "sandboxprobe") })
	if probeErr != nil {
		t.Fatal(probeErr)
	}
	return probePath
}
