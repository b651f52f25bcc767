package manager

import "sync"

// A match has no deadline of its own: a game may take any number of turns
// (a game program's tic-tac-toe nine, a link race up to its step limit).
// What the manager bounds is the time without progress: its referee
// reports the steps of the match as it plays them (MATCH_STEP), and each
// step gives the referee the match deadline again (matchDeadline, the
// longest one step may take with every call's attempts). A referee that
// reports nothing for that long is lost, and its match goes to another.

// matchProgress tells whoever waits for a match's result that its referee
// reported a step of it.
type matchProgress struct {
	mu       sync.Mutex
	watchers map[string]chan struct{}
}

// watch returns what receives a value after each step of the match (steps
// that come together count once), and what ends the watch.
func (p *matchProgress) watch(matchID string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.watchers == nil {
		p.watchers = map[string]chan struct{}{}
	}
	p.watchers[matchID] = ch
	return ch, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.watchers[matchID] == ch {
			delete(p.watchers, matchID)
		}
	}
}

// made tells the match's watcher, if any, that a step was reported.
func (p *matchProgress) made(matchID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case p.watchers[matchID] <- struct{}{}:
	default: // a step not yet seen is pending already, or no one watches
	}
}
