package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/google/pprof/profile"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// Breakdown is where the agents' CPU went during the league, by kind of
// work (WorkKinds) and role, from the CPU profiles of every agent.
type Breakdown struct {
	Profiles int       // profiles read: one per agent process (the bench's own when it hosts the players)
	Kinds    []KindCPU // every kind of WorkKinds(), in its order
}

// KindCPU is the CPU one kind of work took, by role.
type KindCPU struct {
	Kind string
	CPU  CPU
}

// Profiled is the CPU the profiles hold, by role: every kind together.
func (b *Breakdown) Profiled() CPU {
	var total CPU
	for _, k := range b.Kinds {
		total = total.add(k.CPU)
	}
	return total
}

func (c CPU) add(o CPU) CPU {
	return CPU{Manager: c.Manager + o.Manager, Referees: c.Referees + o.Referees, Players: c.Players + o.Players}
}

// Role names, as the agents name their profiles (<role>-<pid>.pprof).
const (
	rolePlayer  = "player"
	roleReferee = "referee"
	roleManager = "manager"
)

// cpuProfiles opens and closes the window in which the league's agents
// profile their CPU (node.CPUProfileWindowEnv) and reads what they wrote.
type cpuProfiles struct {
	roles  map[string]string // profile path → role of its agent
	agents []int             // the processes told to profile
	self   *node.CPUProfile  // this process's profile, when it hosts the players
	closed bool
}

// profileEnv is what the agents need in their environment to profile the
// window the bench opens, into dir.
func profileEnv(dir string) []string {
	return []string{node.CPUProfileEnv + "=" + dir, node.CPUProfileWindowEnv + "=" + node.CPUProfileOnSignal}
}

// openProfiles tells every agent of league to start its CPU profile, and
// starts this process's own when it hosts the players.
func openProfiles(dir string, league *launcher.League, hosted hostedPlayers) (*cpuProfiles, error) {
	p := &cpuProfiles{roles: map[string]string{}}
	groups := map[string][]int{roleManager: {league.Manager.PID()}}
	for _, c := range league.Referees {
		groups[roleReferee] = append(groups[roleReferee], c.PID())
	}
	for _, c := range league.Players {
		groups[rolePlayer] = append(groups[rolePlayer], c.PID())
	}
	for role, pids := range groups {
		for _, pid := range pids {
			p.roles[filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", role, pid))] = role
			p.agents = append(p.agents, pid)
		}
	}
	if hosted != nil {
		path := filepath.Join(dir, fmt.Sprintf("bench-players-%d.pprof", os.Getpid()))
		self := node.NewCPUProfile(path)
		if err := self.Start(); err != nil {
			return nil, fmt.Errorf("--cpu-profile: %w", err)
		}
		p.self, p.roles[path] = self, rolePlayer
	}
	return p, p.signal(node.CPUProfileStart)
}

func (p *cpuProfiles) signal(sig os.Signal) error {
	var errs []error
	for _, pid := range p.agents {
		proc, err := os.FindProcess(pid)
		if err == nil {
			err = proc.Signal(sig)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("telling agent %d to profile: %w", pid, err))
		}
	}
	return errors.Join(errs...)
}

// close tells every agent to stop and write its profile, and stops this
// process's own; the agents' profiles are whole once they have exited.
func (p *cpuProfiles) close() {
	if p == nil || p.closed {
		return
	}
	p.closed = true
	_ = p.signal(node.CPUProfileStop) // an agent already gone wrote its profile as it stopped
	if p.self != nil {
		p.self.Stop()
	}
}

// read classifies every profile's samples by kind of work, once the agents
// that wrote them have exited.
func (p *cpuProfiles) read() (*Breakdown, error) {
	b := &Breakdown{Kinds: make([]KindCPU, len(WorkKinds()))}
	for i, kind := range WorkKinds() {
		b.Kinds[i].Kind = kind.Name
	}
	for path, role := range p.roles {
		byKind, err := readProfile(path)
		if err != nil {
			return nil, err
		}
		for k, cpu := range byKind {
			b.Kinds[k].CPU = b.Kinds[k].CPU.add(roleCPU(role, cpu))
		}
		b.Profiles++
	}
	return b, nil
}

func roleCPU(role string, d time.Duration) CPU {
	switch role {
	case roleManager:
		return CPU{Manager: d}
	case roleReferee:
		return CPU{Referees: d}
	default:
		return CPU{Players: d}
	}
}

// readProfile is the CPU of one profile by kind (an index in WorkKinds).
func readProfile(path string) ([]time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	defer f.Close()
	prof, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("CPU profile %s: %w", path, err)
	}
	return ClassifyProfile(prof)
}

// ClassifyProfile adds up a CPU profile's samples by kind of work: the
// result's index k is the CPU time of WorkKinds[k].
func ClassifyProfile(prof *profile.Profile) ([]time.Duration, error) {
	value := -1
	for i, st := range prof.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			value = i
		}
	}
	if value < 0 {
		return nil, errors.New("not a CPU profile: no cpu/nanoseconds sample type")
	}
	byKind := make([]time.Duration, len(WorkKinds()))
	var stack []string
	for _, s := range prof.Sample {
		stack = stack[:0]
		for _, loc := range s.Location {
			for _, line := range loc.Line { // inlined functions first, as they are called
				if line.Function != nil {
					stack = append(stack, line.Function.Name)
				}
			}
		}
		byKind[kindOf(stack)] += time.Duration(s.Value[value])
	}
	return byKind, nil
}

// table writes the breakdown for people: per kind, its CPU per exchange
// and per match, and its share of each role's profiled CPU.
func (b *Breakdown) table(w io.Writer, lg LeagueResult) error {
	total := b.Profiled()
	fmt.Fprintf(w, "\nCPU by kind of work, from %d CPU profiles, one per agent process, of the league (from its start to\n"+
		"league_completed): %.1f s profiled, manager %.1f s, referees %.1f s, players %.1f s. Each sample counts once, under\n"+
		"the first kind it shows (league/bench/kinds.go); player, referee, manager: the kind's share of that role's CPU.\n\n",
		b.Profiles, total.Total().Seconds(), total.Manager.Seconds(), total.Referees.Seconds(), total.Players.Seconds())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kind of work\tµs per exchange\tms per match\tplayer\treferee\tmanager")
	for _, k := range append(b.Kinds, KindCPU{Kind: "all", CPU: total}) {
		if k.CPU.Total() == 0 {
			continue
		}
		player, referee, manager := shares(k.CPU, total)
		fmt.Fprintf(tw, "%s\t%.0f\t%.2f\t%s\t%s\t%s\n", k.Kind, perExchange(k.CPU, lg), perMatch(k.CPU, lg),
			percent(player), percent(referee), percent(manager))
	}
	return tw.Flush()
}

// shares are part's share of whole in each role: player, referee,
// manager; -1 where a role has no profiled CPU.
func shares(part, whole CPU) (player, referee, manager float64) {
	share := func(p, w time.Duration) float64 {
		if w == 0 {
			return -1
		}
		return float64(p) / float64(w)
	}
	return share(part.Players, whole.Players), share(part.Referees, whole.Referees), share(part.Manager, whole.Manager)
}

func percent(share float64) string {
	if share < 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100*share)
}

func perExchange(c CPU, lg LeagueResult) float64 {
	return Ratio(float64(c.Total())/float64(time.Microsecond), float64(lg.Exchanges))
}

func perMatch(c CPU, lg LeagueResult) float64 {
	return Ratio(millis(c.Total()), float64(lg.Matches))
}

// The JSON shape of the breakdown: CPU in seconds by role, shares of each
// role's profiled CPU from 0 to 1 (null where a role has none).
type (
	jsonBreakdown struct {
		Window          string     `json:"window"`
		Profiles        int        `json:"profiles"`
		ProfiledSeconds jsonCPU    `json:"profiled_cpu_seconds"`
		Kinds           []jsonKind `json:"kinds"`
	}
	jsonKind struct {
		Kind          string     `json:"kind"`
		USPerExchange float64    `json:"us_per_exchange"`
		MsPerMatch    float64    `json:"ms_per_match"`
		CPUSeconds    jsonCPU    `json:"cpu_seconds"`
		Share         jsonShares `json:"share"`
	}
	jsonShares struct {
		Manager  *float64 `json:"manager"`
		Referees *float64 `json:"referees"`
		Players  *float64 `json:"players"`
	}
)

func (b *Breakdown) json(lg LeagueResult) *jsonBreakdown {
	if b == nil {
		return nil
	}
	total := b.Profiled()
	out := &jsonBreakdown{Window: "league", Profiles: b.Profiles, ProfiledSeconds: secondsOf(total)}
	for _, k := range b.Kinds {
		player, referee, manager := shares(k.CPU, total)
		out.Kinds = append(out.Kinds, jsonKind{Kind: k.Kind, USPerExchange: perExchange(k.CPU, lg), MsPerMatch: perMatch(k.CPU, lg),
			CPUSeconds: secondsOf(k.CPU), Share: jsonShares{Manager: known(manager), Referees: known(referee), Players: known(player)}})
	}
	return out
}

func secondsOf(c CPU) jsonCPU {
	return jsonCPU{c.Manager.Seconds(), c.Referees.Seconds(), c.Players.Seconds()}
}

func known(share float64) *float64 {
	if share < 0 {
		return nil
	}
	return &share
}
