package launcher

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// Joining is who a new league is waiting for and who has joined, as the
// manager's feed tells it; the console and --no-ui show it while it waits.
type Joining struct {
	URL       string   // the manager's /mcp URL to register with
	Joined    []string // "carol (P04)", in the order they registered
	Missing   []string // the roster's names not registered yet
	SeatsLeft int      // open seats no one has taken yet
	Started   bool     // the league started (the console's s) while it waited
	Window    time.Duration
}

// Complete reports that everyone the league waits for is there.
func (j Joining) Complete() bool { return len(j.Missing) == 0 && j.SeatsLeft == 0 }

// Waiting names who is still missing: "alice, carol and 2 open seats".
func (j Joining) Waiting() string {
	return joinTarget{names: j.Missing, seats: j.SeatsLeft}.describe()
}

// Line is the one-line summary the console shows while the league waits.
func (j Joining) Line() string {
	line := "register at " + j.URL
	if len(j.Joined) > 0 {
		line += " · joined: " + strings.Join(j.Joined, ", ")
	}
	if !j.Complete() {
		line += " · waiting for " + j.Waiting()
	}
	return line
}

// joinTargetFor is who a new league started with opts waits for: the
// roster's agents that register on their own, and the open seats.
func joinTargetFor(opts Spec) joinTarget {
	t := joinTarget{seats: opts.Config.Joining.OpenSeats}
	for _, e := range mcpSeatEntries(opts.Config.Joining.MCPSeats) {
		t.names = append(t.names, e.Name) // each registers when its client takes it
	}
	if opts.Roster == nil {
		return t
	}
	for _, list := range [][]config.RosterEntry{opts.Roster.Players, opts.Roster.Referees} {
		for _, e := range list {
			if k := e.Kind(); k == config.KindExternal || k == config.KindProgram || k == config.KindMCP {
				t.names = append(t.names, e.Name)
			}
		}
	}
	return t
}

// Waiter follows registrations while a new league waits to start.
type Waiter struct {
	league *League
	target joinTarget
	roster []string // the names of the league's own players, lower case: the others take seats
	window time.Duration

	cursor int64 // the feed is read after this event: a resumed league's registrations of this run

	mu    sync.Mutex
	state Joining
}

// NewReturnWaiter is the waiter for a resumed league that --no-ui carries
// on: its roster's programs and outside agents and the players that took
// its open seats, each to register again (on whatever port) before a
// match is handed out, so that none of them loses one for being late or
// is called where it listened before. Nil when it waits for nobody.
func (l *League) NewReturnWaiter(opts Spec) *Waiter {
	if l.Resumed == nil || l.Finished() {
		return nil
	}
	target := joinTargetFor(opts)
	target.seats = 0
	for _, row := range l.Resumed.Standings {
		ours := slices.ContainsFunc(l.playerNames, func(n string) bool { return strings.EqualFold(n, row.DisplayName) })
		if !ours && row.Status == "" { // a suspended player is not waited for
			target.names = append(target.names, row.DisplayName)
		}
	}
	if target.empty() {
		return nil
	}
	w := &Waiter{league: l, target: target, window: opts.Config.Joining.Window, cursor: l.Resumed.Version}
	w.state = Joining{URL: l.Manager.Endpoint, Missing: slices.Clone(target.names), Window: w.window}
	return w
}

// NewWaiter is the waiter for a league Launch started with opts; nil when
// the league waits for nobody (or resumes a league already under way).
func (l *League) NewWaiter(opts Spec) *Waiter {
	target := joinTargetFor(opts)
	if target.empty() || l.Resumed != nil {
		return nil
	}
	var roster []string
	for _, n := range l.playerNames {
		roster = append(roster, strings.ToLower(n))
	}
	w := &Waiter{league: l, target: target, roster: roster, window: opts.Config.Joining.Window}
	w.state = Joining{URL: l.Manager.Endpoint, Missing: slices.Clone(target.names), SeatsLeft: target.seats, Window: w.window}
	return w
}

// State is who has joined so far.
func (w *Waiter) State() Joining {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.state
	s.Joined, s.Missing = slices.Clone(s.Joined), slices.Clone(s.Missing)
	return s
}

// Await reads the feed until everyone has joined, the join window has
// passed, the league has started anyway (the console's s), or ctx ends;
// it calls changed with the state each time someone joins.
func (w *Waiter) Await(ctx context.Context, changed func(Joining)) (Joining, error) {
	var deadline <-chan time.Time
	if w.window > 0 {
		timer := time.NewTimer(w.window)
		defer timer.Stop()
		deadline = timer.C
	}
	cursor := w.cursor
	for {
		if s := w.State(); s.Complete() || s.Started {
			return s, nil
		}
		select {
		case <-deadline:
			return w.State(), nil
		default:
		}
		if err := w.programDown(); err != nil {
			return w.State(), err
		}
		page, err := w.league.Control.Events(ctx, cursor, time.Second)
		if err != nil {
			if ctx.Err() != nil {
				return w.State(), ctx.Err()
			}
			if exited, status := w.league.Manager.Exited(0); exited { // nobody can join any more
				return w.State(), &ManagerExitedError{PID: w.league.Manager.PID(), Status: status, Cause: err}
			}
			select { // the manager may be busy: try again, not too fast
			case <-time.After(200 * time.Millisecond):
			case <-ctx.Done():
				return w.State(), ctx.Err()
			}
			continue
		}
		cursor = page.LastSeq
		if w.apply(page.Events) && changed != nil {
			changed(w.State())
		}
	}
}

// programDown is the error that ends the wait of a league with no join
// window when a roster program it waits for stays down for good (it
// exited with its restarts spent): it would wait for ever. With a join
// window, the league starts without it when the window has passed.
func (w *Waiter) programDown() error {
	if w.window > 0 {
		return nil
	}
	w.league.programsMu.Lock()
	programs := slices.Clone(w.league.Programs)
	w.league.programsMu.Unlock()
	missing := w.State().Missing
	for _, p := range programs {
		select {
		case <-p.Down():
			if slices.ContainsFunc(missing, func(n string) bool { return strings.EqualFold(n, p.Name) }) {
				return fmt.Errorf("roster program %s %s before it registered; the league cannot wait for it "+
					"(its output is in %s)%s", p.Name, p.DownReason(), p.log, lastWords(p.log))
			}
		default:
		}
	}
	return nil
}

// apply takes registrations and the league's start from events; it
// reports whether anyone joined.
func (w *Waiter) apply(events []engine.Event) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	joined := false
	for _, ev := range events {
		switch {
		case ev.Kind == engine.EventLeagueStarted:
			w.state.Started = true
		case ev.Kind == engine.EventAgentRegistered && ev.Agent != nil:
			a := ev.Agent
			if i := slices.IndexFunc(w.state.Missing, func(n string) bool { return strings.EqualFold(n, a.DisplayName) }); i >= 0 {
				w.state.Missing = slices.Delete(w.state.Missing, i, i+1)
			} else if a.Role != engine.RolePlayer || slices.Contains(w.roster, strings.ToLower(a.DisplayName)) ||
				w.state.SeatsLeft == 0 || w.seen(a.ID) {
				continue // one of ours, or a seat taken again
			} else {
				w.state.SeatsLeft--
			}
			w.state.Joined = append(w.state.Joined, fmt.Sprintf("%s (%s)", a.DisplayName, a.ID))
			joined = true
		}
	}
	return joined
}

// seen reports an id already counted (an agent registering again).
func (w *Waiter) seen(id string) bool {
	return slices.ContainsFunc(w.state.Joined, func(j string) bool { return strings.HasSuffix(j, "("+id+")") })
}

// DescribeEnd says how the wait ended, naming who is missing.
func (j Joining) DescribeEnd() string {
	switch {
	case j.Complete():
		return "everyone has joined"
	case j.Started:
		return "the league was started without " + j.Waiting()
	}
	return fmt.Sprintf("the join window (%s) has passed; starting without %s", j.Window, j.Waiting())
}
