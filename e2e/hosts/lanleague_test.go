//go:build linux

package hosts_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/testcert"
	"github.com/leaguetui/leaguetui/league/process"
)

// lanOptions place a league on a LAN.
type lanOptions struct {
	Seed    string
	Secure  bool     // every agent serves HTTPS with a certificate of a test CA; the manager requires it
	Listen  string   // the wildcard referees and players listen on: "0.0.0.0" or "::"
	Players []string // the machine of each player, in registration order
	Extra   []string // flags for every agent (timeouts)
}

// lanLeague is a league whose manager, referees and players run on
// separate machines of a LAN: the manager on "mgr", two referees on "ref".
type lanLeague struct {
	lan     *lan
	opts    lanOptions
	ca      *testcert.CA
	dirs    map[string]string // machine -> its own data folder
	out     string            // the agents' stderr files
	admin   string
	mgr     *process.Child
	players []*process.Child
}

// startLANLeague starts the agents one by one, each registered before the
// next, in the order `leaguetui --no-ui` starts them, so that the same seed
// gives the same league as on one host.
func startLANLeague(t *testing.T, l *lan, opts lanOptions) *lanLeague {
	t.Helper()
	g := &lanLeague{lan: l, opts: opts, dirs: map[string]string{}, out: t.TempDir(), admin: "adm-" + opts.Seed}
	if opts.Secure {
		g.ca = testcert.NewCA(t)
	}
	g.startManager(t, "manager", "0")
	for i := range 2 {
		name := fmt.Sprintf("REF%02d", i+1)
		leaguetest.StartInNetns(t, l.ns["ref"], "referee "+name, g.out, true,
			[]string{"LEAGUETUI_REFEREE_KEY=" + leaguetest.RefereeKey}, append([]string{"referee", "--host", opts.Listen,
				"--port", "0", "--manager", g.mgr.Endpoint, "--name", name}, g.agentArgs(t, "ref")...)...)
	}
	strategies := engine.StrategyNames()
	for i, machine := range opts.Players {
		name := fmt.Sprintf("P%02d", i+1)
		g.players = append(g.players, leaguetest.StartInNetns(t, l.ns[machine], "player "+name, g.out, true, nil,
			append([]string{"player", "--host", opts.Listen, "--port", "0", "--manager", g.mgr.Endpoint, "--name", name,
				"--strategy", strategies[i%len(strategies)], "--seed", opts.Seed}, g.agentArgs(t, machine)...)...))
	}
	return g
}

// startManager starts the manager on its machine, on port ("0": one the
// kernel picks), with its own data folder: the same one each time.
func (g *lanLeague) startManager(t *testing.T, name, port string) {
	t.Helper()
	args := append([]string{"manager", "--host", g.lan.addr["mgr"], "--port", port, "--seed", g.opts.Seed}, g.agentArgs(t, "mgr")...)
	if g.opts.Secure {
		args = append(args, "--require-tls")
	}
	g.mgr = leaguetest.StartInNetns(t, g.lan.ns["mgr"], name, g.out, false,
		[]string{"LEAGUETUI_ADMIN_TOKEN=" + g.admin, "LEAGUETUI_REFEREE_KEY=" + leaguetest.RefereeKey}, args...)
	if host := hostOf(t, g.mgr.Endpoint); host != g.lan.addr["mgr"] || g.scheme(g.mgr.Endpoint) != "" {
		t.Fatalf("manager listens at %s, want %s on %s", g.mgr.Endpoint, g.wantScheme(), g.lan.addr["mgr"])
	}
}

// agentArgs are the flags of an agent on machine: its own data folder,
// and over TLS a certificate for the machine's address.
func (g *lanLeague) agentArgs(t *testing.T, machine string) []string {
	dir, ok := g.dirs[machine]
	if !ok {
		dir = t.TempDir()
		g.dirs[machine] = dir
	}
	args := append([]string{"--data", dir}, g.opts.Extra...)
	if g.ca != nil {
		args = append(args, tlsArgs(g.ca, g.ca.Leaf(t, machine, g.lan.addr[machine]))...)
	}
	return args
}

func (g *lanLeague) wantScheme() string {
	if g.opts.Secure {
		return "https"
	}
	return "http"
}

// scheme is "" when endpoint has the scheme the league should use, else
// the one it has.
func (g *lanLeague) scheme(endpoint string) string {
	if strings.HasPrefix(endpoint, g.wantScheme()+"://") {
		return ""
	}
	return endpoint
}

func hostOf(t *testing.T, endpoint string) string {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatalf("endpoint %q: %v", endpoint, err)
	}
	return u.Hostname()
}

// base is the manager's URL without /mcp, as --attach takes it.
func (g *lanLeague) base() string { return strings.TrimSuffix(g.mgr.Endpoint, "/mcp") }

// caArgs is --tls-ca for a client of a secure league.
func (g *lanLeague) caArgs() []string {
	if g.ca == nil {
		return nil
	}
	return []string{"--tls-ca", g.ca.CertFile}
}

// journal reads the manager's journal (the test reads the manager's
// files: the host shares the file system, not the network).
func (g *lanLeague) journal(t *testing.T) []engine.Event { return readJournal(t, g.dirs["mgr"]) }

// readJournal reads the events of the journal in the data folder dir.
func readJournal(t *testing.T, dir string) []engine.Event {
	t.Helper()
	return leaguetest.Journal(t, dir, config.Default().LeagueID)
}

// checkEndpoints: every agent registered the address of its own machine
// (not a wildcard, not loopback) with the league's scheme.
func (g *lanLeague) checkEndpoints(t *testing.T) {
	t.Helper()
	want := map[string]string{"referee": g.lan.addr["ref"]}
	for i, machine := range g.opts.Players {
		want[fmt.Sprintf("P%02d", i+1)] = g.lan.addr[machine]
	}
	seen := 0
	for _, ev := range g.journal(t) {
		if ev.Kind != engine.EventAgentRegistered || ev.Agent == nil {
			continue
		}
		seen++
		key := ev.Agent.ID
		if ev.Agent.Role == engine.RoleReferee {
			key = "referee"
		}
		if host := hostOf(t, ev.Agent.Endpoint); host != want[key] || g.scheme(ev.Agent.Endpoint) != "" {
			t.Errorf("%s registered %s, want %s://%s:PORT/mcp", ev.Agent.ID, ev.Agent.Endpoint, g.wantScheme(), want[key])
		}
	}
	if seen != 2+len(g.opts.Players) {
		t.Errorf("%d registrations in the journal, want %d", seen, 2+len(g.opts.Players))
	}
}

// finalStandings waits for a completed standings file in dir.
func finalStandings(t *testing.T, dir string) protocol.StandingsFile {
	t.Helper()
	path := store.Layout{Root: dir, LeagueID: config.Default().LeagueID}.Standings()
	var doc protocol.StandingsFile
	deadline := time.Now().Add(30 * time.Second)
	for {
		raw, err := os.ReadFile(path)
		if err == nil && json.Unmarshal(raw, &doc) == nil && doc.State == engine.LeagueCompleted {
			return doc
		}
		if time.Now().After(deadline) {
			t.Fatalf("no completed league in %s (%v): %s", path, err, raw)
		}
		time.Sleep(50 * time.Millisecond) // a poll interval: the file is rewritten, nothing signals it
	}
}

// oneHostStandings plays the same seed with `leaguetui --no-ui` on this
// host's loopback.
func oneHostStandings(t *testing.T, seed string, players int, extra ...string) protocol.StandingsFile {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"--no-ui", "--free-ports", "--data", dir, "--seed", seed, "--players", fmt.Sprint(players),
		"--referees", "2"}, extra...)
	run := leaguetest.RunLeaguetui(t, dir, 3*time.Minute, nil, args...)
	if run.Err != nil {
		leaguetest.KillLeftovers(t, dir)
		t.Fatalf("leaguetui %v: %v\n%s", args, run.Err, run.Stderr)
	}
	return finalStandings(t, dir)
}

func sameRows(t *testing.T, got, want protocol.StandingsFile) {
	t.Helper()
	if len(got.Standings) != len(want.Standings) || len(got.Standings) == 0 {
		t.Fatalf("%d standings rows, want %d", len(got.Standings), len(want.Standings))
	}
	for i := range want.Standings {
		if got.Standings[i] != want.Standings[i] {
			t.Errorf("row %d: across machines %+v, on one host %+v", i+1, got.Standings[i], want.Standings[i])
		}
	}
}

// TestLeagueAcrossMachines plays a league with the manager, the referees
// and the players on four network stacks joined only by a LAN, watched and
// started by the console attached from a fifth, over HTTP and over HTTPS
// (a private CA, --require-tls, players listening on ::). Every agent
// registers its own machine's address, the console's Agents pane shows
// them all answering, the standings equal the same seed's on one host, and
// every match's transcript is read through the manager though each machine
// keeps its own data folder.
func TestLeagueAcrossMachines(t *testing.T) {
	requireNetns(t)
	const seed = "29"
	want := oneHostStandings(t, seed, 4)
	for _, tt := range []struct {
		name   string
		secure bool
		listen string
	}{{"http", false, "0.0.0.0"}, {"https", true, "::"}} {
		t.Run(tt.name, func(t *testing.T) {
			l := newLAN(t, "mgr", "ref", "pa", "pb", "console")
			g := startLANLeague(t, l, lanOptions{Seed: seed, Secure: tt.secure, Listen: tt.listen,
				Players: []string{"pa", "pa", "pb", "pb"}})
			x := leaguetest.NewTmux(t, 200, 50, strings.Join(append([]string{"exec", "ip", "netns", "exec", l.ns["console"],
				"env", "LEAGUETUI_ADMIN_TOKEN=" + g.admin, leaguetest.Binary(t), "--attach", g.base(), "--data", t.TempDir()}, g.caArgs()...), " "))
			x.WaitScreen(60*time.Second, "press s to start")
			checkAgentsPane(t, g, x)
			press(t, x, "s", "league started", func(screen string) bool { return !strings.Contains(screen, "○ waiting") })
			x.WaitScreen(180*time.Second, "✓ completed")
			sameRows(t, finalStandings(t, g.dirs["mgr"]), want)
			g.checkEndpoints(t)
			g.checkTranscripts(t)
		})
	}
}

// checkAgentsPane: the console's Agents pane lists every agent at the
// endpoint it registered, and the console reaches each one: none is
// marked ✗, and the last player's MCP tools, which only its /health
// tells, are shown.
func checkAgentsPane(t *testing.T, g *lanLeague, x *leaguetest.Tmux) {
	t.Helper()
	press(t, x, "4", "Agents pane", func(screen string) bool { return strings.Contains(screen, "Agents (focus)") })
	last := g.players[len(g.players)-1].ID
	// G: to the last row, one key (a burst of j's reads as one key press).
	press(t, x, "G", last+" selected", func(screen string) bool { return strings.Contains(screen, "›player  "+last) })
	var want []string
	for _, p := range g.players {
		want = append(want, strings.TrimSuffix(strings.TrimPrefix(registered(t, g, p.ID), "http://"), "/mcp"))
	}
	want = append(want, "tools of "+last+":", "handle_game_invitation")
	// A probe may time out on a loaded machine: wait for a screen where
	// every agent answered the last one.
	x.WaitScreenFor(60*time.Second, fmt.Sprintf("%q and no agent marked ✗", want), func(screen string) bool {
		return leaguetest.ContainsAll(screen, want...) && !strings.Contains(screen, "✗")
	})
}

// press types key until ok accepts the screen. The console sometimes
// drops a key pressed right after another one changed the screen, so a
// key whose effect does not show is pressed again; each key here does
// nothing more when pressed twice.
func press(t *testing.T, x *leaguetest.Tmux, key, what string, ok func(screen string) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok(x.Screen()) {
		if time.Now().After(deadline) {
			t.Fatalf("after pressing %s, no %s:\n%s", key, what, x.Screen())
		}
		x.Keys(key)
		time.Sleep(500 * time.Millisecond) // a poll interval for the screen to show the key's effect
	}
}

// registered is the endpoint the journal holds for agent id.
func registered(t *testing.T, g *lanLeague, id string) string {
	t.Helper()
	endpoint := ""
	for _, ev := range g.journal(t) {
		if ev.Kind == engine.EventAgentRegistered && ev.Agent != nil && ev.Agent.ID == id {
			endpoint = ev.Agent.Endpoint
		}
	}
	if endpoint == "" {
		t.Fatalf("%s never registered", id)
	}
	return endpoint
}
