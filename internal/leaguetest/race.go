//go:build race

package leaguetest

// raceEnabled: the tests run with -race, so the binary is built with it too
// and the agent processes are checked for data races as well.
const raceEnabled = true
