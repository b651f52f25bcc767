package relay

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net/http"
	"sync"
	"time"
)

// seat is one pull player's calls: those waiting for a poll (queue) and
// those handed out and waiting for the answer (handed). slots bounds both
// together, so that a flood of calls is refused rather than held.
type seat struct {
	mu        sync.Mutex
	tokenHash [sha256.Size]byte
	handed    map[string]*delivery // delivery id -> a call handed out, not yet answered
	queue     chan *delivery       // calls waiting for a poll
	slots     chan struct{}        // one per call held
	polls     chan struct{}        // one per poll waiting
	lastPoll  time.Time            // when the last poll ended (under mu)
}

// delivery is one held call.
type delivery struct {
	id     string
	body   []byte
	answer chan answer   // the player's answer, sent once
	gone   chan struct{} // closed when the caller stops waiting
}

// answer is what the caller's response becomes.
type answer struct {
	status int
	body   []byte
}

func newSeat(queue int) *seat {
	return &seat{handed: map[string]*delivery{}, queue: make(chan *delivery, queue),
		slots: make(chan struct{}, queue), polls: make(chan struct{}, pollers)}
}

func (s *seat) setToken(sum [sha256.Size]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenHash = sum
}

// opens compares token with the seat's in constant time (the hashes'
// length is fixed, so their compare leaks nothing of the token's).
func (s *seat) opens(token string) bool {
	sum := sha256.Sum256([]byte(token))
	s.mu.Lock()
	defer s.mu.Unlock()
	return token != "" && subtle.ConstantTimeCompare(sum[:], s.tokenHash[:]) == 1
}

var errQueueFull = errors.New("the player's queue of calls is full; try again later")

// enqueue holds a call for the next poll, or refuses it when the seat
// already holds as many as it may.
func (s *seat) enqueue(body []byte) (*delivery, error) {
	select {
	case s.slots <- struct{}{}:
	default:
		return nil, errQueueFull
	}
	d := &delivery{id: newDeliveryID(), body: body, answer: make(chan answer, 1), gone: make(chan struct{})}
	s.queue <- d // never blocks: the queue has a place for every slot
	return d, nil
}

// release ends a call's hold, answered or not: a poll skips it, and an
// answer to it is refused.
func (s *seat) release(d *delivery) {
	close(d.gone)
	s.mu.Lock()
	delete(s.handed, d.id)
	s.mu.Unlock()
	<-s.slots
}

// next waits up to wait for a call whose caller still waits, and hands it
// out; nil when none came or the poller went. Once draining is closed it
// waits at most DrainGrace more.
func (s *seat) next(ctx context.Context, wait time.Duration, draining <-chan struct{}) *delivery {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case d := <-s.queue:
			if s.hand(d) {
				return d
			}
		case <-timer.C:
			return nil
		case <-ctx.Done():
			return nil
		case <-draining:
			draining = nil // fires once
			timer.Reset(DrainGrace)
		}
	}
}

// pollWaiting says a poll of the seat waits now for a call.
func (s *seat) pollWaiting() bool { return len(s.polls) > 0 }

// hand records d as handed out, unless its caller has gone already.
func (s *seat) hand(d *delivery) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-d.gone:
		return false
	default:
	}
	s.handed[d.id] = d
	return true
}

// take is the handed-out call with that delivery id, removed so that it
// is answered once; nil for an unknown or answered id.
func (s *seat) take(id string) *delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.handed[id]
	delete(s.handed, id)
	return d
}

// answer writes body as the answer to the call with that delivery id:
// its caller's response (202 with no body for a notification's empty
// answer). A status other than 0 says why it could not, with the reason.
func (s *seat) answer(id string, body []byte) (status int, why string) {
	d := s.take(id)
	if d == nil {
		return http.StatusNotFound, "no call of this seat waits for an answer with that delivery id (unknown, or answered already)"
	}
	a := answer{status: http.StatusOK, body: body}
	if len(body) == 0 {
		a.status = http.StatusAccepted // a notification's answer: no body
	}
	select {
	case d.answer <- a:
		return 0, ""
	case <-d.gone:
		return http.StatusGone, "the call's caller stopped waiting before the answer came"
	}
}

func (s *seat) startPoll() bool {
	select {
	case s.polls <- struct{}{}:
		return true
	default:
		return false
	}
}

func (s *seat) endPoll() {
	s.mu.Lock()
	s.lastPoll = time.Now()
	s.mu.Unlock()
	<-s.polls
}

// polling says the player polls the seat: a poll of its waits now, or
// one ended within wait (the player is answering a call, or on its way
// back).
func (s *seat) polling(wait time.Duration) bool {
	if len(s.polls) > 0 {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.lastPoll.IsZero() && time.Since(s.lastPoll) < wait
}
