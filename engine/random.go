package engine

import (
	"hash/fnv"
	"math/rand/v2"
)

// MatchRand returns a generator derived only from the league seed, the match
// id and a purpose label, so that a draw does not depend on which match
// finishes first and two purposes in one match (say, the referee's draw and
// a player's strategy) never share a stream.
func MatchRand(seed int64, matchID, purpose string) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), fnv64a(purpose+"\x00"+matchID)))
}

// fnv64a hashes s with 64-bit FNV-1a.
func fnv64a(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s)) // a hash.Hash never returns an error
	return h.Sum64()
}
