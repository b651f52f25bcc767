//go:build !race

package leaguetest

const raceEnabled = false
