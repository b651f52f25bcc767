// Package engine is the pure domain core of leaguetui: the round-robin
// schedule, the games, the referee's match state machine, scoring and
// standings, and the built-in player strategies.
//
// It uses only the standard library and does no I/O: no files, no network,
// no wall clock and no global random source. Every random draw comes from
// MatchRand, so a league replayed with the same seed gives the same results
// regardless of the order in which matches finish.
//
// Role, an agent's kind, is declared here once, for the league's own rules
// and the journal; agents/protocol names it protocol.Role rather than the
// engine importing the wire.
package engine
