package relay

// PollWaiting says a poll of agent's seat waits now: what a test waits
// for before it posts a call that must find the poll.
func (r *Relay) PollWaiting(agent string) bool {
	s := r.seat(agent)
	return s != nil && s.pollWaiting()
}

// Pollers is how many polls of one seat may wait at once.
const Pollers = pollers
