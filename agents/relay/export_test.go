package relay

// PollWaiting says a poll of agent's seat waits now: what a test waits
// for before it posts a call that must find the poll.
func (r *Relay) PollWaiting(agent string) bool {
	s := r.seat(agent)
	return s != nil && s.pollWaiting()
}

// Pollers is how many polls of one seat may wait at once.
const Pollers = pollers

// Held is how many calls agent's seat holds now, queued or handed out.
func (r *Relay) Held(agent string) int {
	s := r.seat(agent)
	if s == nil {
		return 0
	}
	return len(s.slots)
}
