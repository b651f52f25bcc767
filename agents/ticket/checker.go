package ticket

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"hash"
	"sync"
)

// Checker checks the tickets of one key as Valid does, with the key's
// HMAC set up once and its buffers kept: a player checks a ticket each
// match, and Valid set up the HMAC, formatted each part and made the
// ticket's text anew every time.
type Checker struct {
	mu    sync.Mutex
	mac   hash.Hash
	input []byte                                  // the parts, each ended by a NUL, as mac writes them
	sum   [sha256.Size]byte                       // the HMAC
	want  [len(ticketPrefix) + 2*sha256.Size]byte // the ticket Mint gives
}

// NewChecker is a Checker for the tickets of key.
func NewChecker(key string) *Checker {
	c := &Checker{mac: hmac.New(sha256.New, []byte(key))}
	copy(c.want[:], ticketPrefix)
	return c
}

// Valid reports, in constant time, whether ticket is the one Mint gives
// for the checker's key, the league, the match and the referee.
func (c *Checker) Valid(ticket, leagueID, matchID, refereeID string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.input = c.input[:0]
	for _, part := range [...]string{"match_ticket", leagueID, matchID, refereeID} {
		c.input = append(append(c.input, part...), 0)
	}
	c.mac.Reset()
	c.mac.Write(c.input)
	hex.Encode(c.want[len(ticketPrefix):], c.mac.Sum(c.sum[:0]))
	return len(ticket) == len(c.want) && constantTimeEqual(ticket, c.want[:])
}

// constantTimeEqual compares a string and bytes of the same length in
// time that depends on the length only.
func constantTimeEqual(s string, b []byte) bool {
	var diff byte
	for i := range b {
		diff |= s[i] ^ b[i]
	}
	return subtle.ConstantTimeByteEq(diff, 0) == 1
}
