package store

import (
	"log/slog"
	"sync"
	"time"
)

// RefusedKey is the attribute that marks a log line as a refusal of a
// participant's message, its value the reason (an error code or a short
// sentence of the agent's own). A logger of NewLogger writes the first
// refusal of each kind (its event_type and reason) in an interval in full
// and only counts the others: when the interval ends it writes one line
// with their count. A stranger posting bad messages in a loop thus costs
// the log one line per kind per interval, however fast it posts.
//
// Packages that may not import this one (agents/rpc) write the key as its
// value, "refused".
const RefusedKey = "refused"

// RefusalInterval is how long the refusals of one kind are counted after
// the one written in full.
var RefusalInterval = 10 * time.Second

// maxRefusalKinds bounds the kinds counted at once; past it, refusals are
// counted by their event_type alone. maxReasonKey bounds a reason's bytes
// in its kind.
const (
	maxRefusalKinds = 64
	maxReasonKey    = 120
)

// refusalKind is what refusals are counted by.
type refusalKind struct{ eventType, reason string }

// refusalCounter counts the refusals of one log file.
type refusalCounter struct {
	interval time.Duration
	write    func(k refusalKind, count int, interval time.Duration)

	mu     sync.Mutex
	counts map[refusalKind]*refusalCount
}

// refusalCount is one kind's interval under way.
type refusalCount struct {
	count int // refusals not written one by one
	timer *time.Timer
}

func newRefusalCounter(interval time.Duration, write func(refusalKind, int, time.Duration)) *refusalCounter {
	return &refusalCounter{interval: interval, write: write, counts: map[refusalKind]*refusalCount{}}
}

// refusalOf is the reason of a line that is a refusal.
func refusalOf(attrs []slog.Attr) (string, bool) {
	for _, a := range attrs {
		if a.Key == RefusedKey {
			return a.Value.String(), true
		}
	}
	return "", false
}

// refusalKey is the kind a refusal is counted by, its reason cut.
func refusalKey(eventType *slog.Attr, reason string) refusalKind {
	k := refusalKind{reason: reason}
	if eventType != nil {
		k.eventType = eventType.Value.String()
	}
	if len(k.reason) > maxReasonKey {
		k.reason = clip(k.reason[:maxReasonKey])
	}
	return k
}

// first reports whether a refusal of kind k is the first of an interval,
// to be written in full; any other is counted.
func (c *refusalCounter) first(k refusalKind) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.counts[k]; !ok && len(c.counts) >= maxRefusalKinds {
		k.reason = "(many reasons)"
	}
	if n, ok := c.counts[k]; ok {
		n.count++
		return false
	}
	c.counts[k] = &refusalCount{timer: time.AfterFunc(c.interval, func() { c.end(k) })}
	return true
}

// end closes kind k's interval, writing its count if any.
func (c *refusalCounter) end(k refusalKind) {
	c.mu.Lock()
	n, ok := c.counts[k]
	delete(c.counts, k)
	c.mu.Unlock()
	if ok && n.count > 0 {
		c.write(k, n.count, c.interval)
	}
}

// flush ends every interval under way, writing their counts.
func (c *refusalCounter) flush() {
	c.mu.Lock()
	kinds := make([]refusalKind, 0, len(c.counts))
	for k, n := range c.counts {
		n.timer.Stop()
		kinds = append(kinds, k)
	}
	c.mu.Unlock()
	for _, k := range kinds {
		c.end(k)
	}
}
