// Package throttle bounds how fast one source may guess a secret: a
// join code at the manager's registration or at the seat host's
// take_seat. A source (an IP address; an IPv6 one by its /64, which one
// machine usually holds whole) may be wrong a few times; after that each
// wrong guess locks it out for twice as long as the one before, up to a
// maximum, and while it is locked out its guesses are refused without
// being compared. A right guess does not reset the count: a client
// holding one valid code must not earn more guesses at the others with
// it. A source's count is forgotten a while after its last wrong guess.
// At most MaxSources sources are remembered, the stalest dropped first,
// so no flood of addresses grows the process.
package throttle

import (
	"net"
	"net/netip"
	"sync"
	"time"
)

// Defaults of a Guesses.
const (
	DefaultFree       = 5                // wrong guesses a source makes before it is locked out
	DefaultFirstLock  = time.Second      // the first lock-out; each one after is twice as long
	DefaultMaxLock    = 5 * time.Minute  // the longest lock-out
	DefaultForget     = 30 * time.Minute // a source's count is forgotten this long after its last wrong guess
	DefaultMaxSources = 4096
)

// Guesses counts wrong guesses by source. The zero value is not usable:
// make one with New.
type Guesses struct {
	free                       int
	firstLock, maxLock, forget time.Duration
	maxSources                 int
	now                        func() time.Time

	mu      sync.Mutex
	sources map[string]*record
}

// record is one source's wrong guesses.
type record struct {
	wrong  int
	until  time.Time // locked out until then
	latest time.Time // the last wrong guess
}

// Options set a Guesses' bounds; zero values are the defaults.
type Options struct {
	Free                       int
	FirstLock, MaxLock, Forget time.Duration
	MaxSources                 int
	Now                        func() time.Time // the clock; nil is time.Now
}

// New makes a Guesses with opts' bounds.
func New(opts Options) *Guesses {
	g := &Guesses{free: opts.Free, firstLock: opts.FirstLock, maxLock: opts.MaxLock, forget: opts.Forget,
		maxSources: opts.MaxSources, now: opts.Now, sources: map[string]*record{}}
	if g.free <= 0 {
		g.free = DefaultFree
	}
	if g.firstLock <= 0 {
		g.firstLock = DefaultFirstLock
	}
	if g.maxLock <= 0 {
		g.maxLock = DefaultMaxLock
	}
	if g.forget <= 0 {
		g.forget = DefaultForget
	}
	if g.maxSources <= 0 {
		g.maxSources = DefaultMaxSources
	}
	if g.now == nil {
		g.now = time.Now
	}
	return g
}

// Source is the key of a remote address ("host:port", or a host alone):
// its IP, an IPv6 address's /64; the address as given when it is none.
func Source(remote string) string {
	host := remote
	if h, _, err := net.SplitHostPort(remote); err == nil {
		host = h
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr = addr.Unmap().WithZone("")
	if addr.Is6() {
		prefix, _ := addr.Prefix(64)
		return prefix.String()
	}
	return addr.String()
}

// LockedOut is how long source must still wait before its next guess is
// compared; 0 when it may guess now.
func (g *Guesses) LockedOut(source string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.sources[source]
	if r == nil {
		return 0
	}
	return max(0, r.until.Sub(g.now()))
}

// Wrong counts a wrong guess of source's, and locks it out once it has
// made more than Free: for FirstLock after the first beyond, twice as
// long after each next one, at most MaxLock. It returns the lock-out, 0
// for none.
func (g *Guesses) Wrong(source string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	r := g.sources[source]
	if r != nil && now.Sub(r.latest) > g.forget {
		r = nil // forgotten: it starts again
	}
	if r == nil {
		g.makeRoom(now)
		r = &record{}
		g.sources[source] = r
	}
	r.wrong++
	r.latest = now
	beyond := r.wrong - g.free
	if beyond <= 0 {
		return 0
	}
	lock := g.maxLock
	if beyond <= 32 { // 2^31 s is past any maximum: no shift overflows
		lock = min(g.maxLock, g.firstLock<<(beyond-1))
	}
	r.until = now.Add(lock)
	return lock
}

// makeRoom drops the sources forgotten by now and, when still full, the
// one whose last wrong guess is the oldest. Call with g.mu held.
func (g *Guesses) makeRoom(now time.Time) {
	if len(g.sources) < g.maxSources {
		return
	}
	for s, r := range g.sources {
		if now.Sub(r.latest) > g.forget && !now.Before(r.until) {
			delete(g.sources, s)
		}
	}
	if len(g.sources) < g.maxSources {
		return
	}
	var stalest string
	var oldest time.Time
	for s, r := range g.sources {
		if stalest == "" || r.latest.Before(oldest) {
			stalest, oldest = s, r.latest
		}
	}
	delete(g.sources, stalest)
}
