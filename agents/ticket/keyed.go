package ticket

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"hash"
	"sync"
)

// Keyed mints and checks the tickets of one key as Mint and Valid do,
// with the key's HMAC set up once and its buffers kept: a manager mints
// two tickets a match and a player checks one, and Mint set up the HMAC,
// formatted each part and made the ticket's text anew every time.
type Keyed struct {
	mu    sync.Mutex
	mac   hash.Hash
	input []byte                                  // the parts, each ended by a NUL, as mac writes them
	sum   [sha256.Size]byte                       // the HMAC
	want  [len(ticketPrefix) + 2*sha256.Size]byte // the ticket Mint gives
}

// NewKeyed is a Keyed for the tickets of key.
func NewKeyed(key string) *Keyed {
	c := &Keyed{mac: hmac.New(sha256.New, []byte(key))}
	copy(c.want[:], ticketPrefix)
	return c
}

// Mint is the ticket Mint gives for the key, the league, the match and
// the referee.
func (c *Keyed) Mint(leagueID, matchID, refereeID string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mint(leagueID, matchID, refereeID)
	return string(c.want[:])
}

// Valid reports, in constant time, whether ticket is the one Mint gives
// for the key, the league, the match and the referee.
func (c *Keyed) Valid(ticket, leagueID, matchID, refereeID string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mint(leagueID, matchID, refereeID)
	return len(ticket) == len(c.want) && constantTimeEqual(ticket, c.want[:])
}

// mint writes the ticket into c.want, as mac computes it. The caller
// holds c.mu.
func (c *Keyed) mint(leagueID, matchID, refereeID string) {
	c.input = c.input[:0]
	for _, part := range [...]string{"match_ticket", leagueID, matchID, refereeID} {
		c.input = append(append(c.input, part...), 0)
	}
	c.mac.Reset()
	c.mac.Write(c.input)
	hex.Encode(c.want[len(ticketPrefix):], c.mac.Sum(c.sum[:0]))
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
