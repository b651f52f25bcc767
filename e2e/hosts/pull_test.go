//go:build linux

package hosts_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// pullManagerPort is the manager's port in the league's namespace, which
// holds nothing else: the default.
const pullManagerPort = "8000"

// TestPullSeatBehindFirewall: the Python starter with --pull, on a
// machine whose inbound traffic is dropped (only the replies of the
// manager's port to the connections it opens come in), plays a league of
// 30 players, 29 of them built-in, through a pull seat, with no
// technical loss anywhere, and the league completes.
func TestPullSeatBehindFirewall(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		leaguetest.SkipWithout(t, "needs python3 for the Python starter")
	}
	l := newLAN(t, "league", "nat")
	probe := func() string { return l.probe(t, python, "league", l.addr["nat"]) }
	if got := probe(); got != "refused" {
		t.Fatalf("before the firewall, a connection to the player's machine: %s, want refused (nothing listens)", got)
	}
	l.dropInbound(t, "nat", pullManagerPort)
	if got := probe(); got != "timeout" {
		t.Fatalf("behind the firewall, a connection to the player's machine: %s, want its packets dropped (timeout)", got)
	}

	dataDir := t.TempDir()
	league := startNetnsLeague(t, l, dataDir, "--players", "29", "--open-seats", "1", "--referees", "4", "--seed", "11")
	url := league.awaitLine(t, "register at ")
	url = strings.Fields(url[strings.Index(url, "register at ")+len("register at "):])[0]
	starter, err := filepath.Abs(filepath.Join("..", "..", "examples", "python", "player.py"))
	if err != nil {
		t.Fatal(err)
	}
	py := exec.Command("ip", "netns", "exec", l.ns["nat"], python, starter, "--pull", "--manager", url,
		"--name", "behind-nat", "--data", t.TempDir())
	pyOut, err := os.Create(filepath.Join(t.TempDir(), "starter.log"))
	if err != nil {
		t.Fatal(err)
	}
	py.Stdout, py.Stderr = pyOut, pyOut
	if err := py.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = py.Process.Kill(); _ = py.Wait() })
	league.wait(t, 5*time.Minute)

	var doc protocol.StandingsFile
	leaguetest.ReadJSON(t, store.Layout{Root: dataDir, LeagueID: config.Default().LeagueID}.Standings(), &doc)
	if len(doc.Standings) != 30 {
		t.Fatalf("%d players in the standings, want 30", len(doc.Standings))
	}
	for _, row := range doc.Standings {
		if row.TechnicalLosses != 0 || row.Played != 29 {
			t.Errorf("%s (%s): played %d, technical losses %d; want 29 and 0", row.DisplayName, row.PlayerID, row.Played, row.TechnicalLosses)
		}
	}
	wantEndpoint := "http://" + l.addr["league"] + ":" + pullManagerPort + "/pull/P30/mcp"
	registered := 0
	for _, ev := range readJournal(t, dataDir) {
		if ev.Agent == nil || ev.Agent.DisplayName != "behind-nat" {
			continue
		}
		registered++
		if ev.Agent.Endpoint != wantEndpoint {
			t.Errorf("behind-nat registered at %s, want its pull seat %s", ev.Agent.Endpoint, wantEndpoint)
		}
	}
	if registered == 0 {
		t.Error("the journal holds no registration of behind-nat")
	}
	if t.Failed() {
		raw, _ := os.ReadFile(pyOut.Name())
		t.Logf("the starter's output:\n%s", raw)
	}
}

// probe connects from machine to addr's port 9, where nothing listens:
// "refused" when a reset came back, "timeout" when nothing did.
func (l *lan) probe(t *testing.T, python, machine, addr string) string {
	t.Helper()
	script := fmt.Sprintf(`import socket
s = socket.socket()
s.settimeout(2)
try:
    s.connect((%q, 9))
    print("connected")
except socket.timeout:
    print("timeout")
except ConnectionRefusedError:
    print("refused")`, addr)
	out, err := exec.Command("ip", "netns", "exec", l.ns[machine], python, "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("probe from %s: %v: %s", machine, err, out)
	}
	return strings.TrimSpace(string(out))
}

// dropInbound firewalls machine with its routing rules (no packet filter
// is needed): every packet that comes in on its link is dropped, unless
// it comes from TCP port sport, the manager's, which only answers the
// connections the machine opens. The rule that delivers local traffic
// moves behind the two.
func (l *lan) dropInbound(t *testing.T, machine, sport string) {
	t.Helper()
	ns := l.ns[machine]
	l.ip("-n", ns, "rule", "add", "pref", "100", "lookup", "local")
	l.ip("-n", ns, "rule", "del", "pref", "0", "lookup", "local")
	l.ip("-n", ns, "rule", "add", "pref", "10", "iif", "eth0", "ipproto", "tcp", "sport", sport, "lookup", "local")
	l.ip("-n", ns, "rule", "add", "pref", "20", "iif", "eth0", "blackhole")
}

// netnsLeague is `leaguetui --no-ui` running in the league's namespace,
// its stderr read line by line.
type netnsLeague struct {
	cmd    *exec.Cmd
	lines  chan string
	seen   []string
	exited chan error
}

// startNetnsLeague starts a league whose agents all listen on the league
// machine's address, on their default ports.
func startNetnsLeague(t *testing.T, l *lan, dataDir string, args ...string) *netnsLeague {
	t.Helper()
	all := append([]string{"netns", "exec", l.ns["league"], leaguetest.Binary(t), "--no-ui", "--host", l.addr["league"],
		"--manager-port", pullManagerPort, "--data", dataDir}, args...)
	g := &netnsLeague{cmd: exec.Command("ip", all...), lines: make(chan string, 1024), exited: make(chan error, 1)}
	g.cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	stderr, err := g.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := g.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		scanner := bufio.NewScanner(stderr)
		for scanner.Scan() {
			g.lines <- scanner.Text()
		}
		close(g.lines)
		g.exited <- g.cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = g.cmd.Process.Kill()
		leaguetest.KillLeftovers(t, dataDir)
	})
	return g
}

// awaitLine waits for a stderr line holding want.
func (g *netnsLeague) awaitLine(t *testing.T, want string) string {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case line, ok := <-g.lines:
			if !ok {
				t.Fatalf("leaguetui exited before saying %q:\n%s", want, strings.Join(g.seen, "\n"))
			}
			g.seen = append(g.seen, line)
			if strings.Contains(line, want) {
				return line
			}
		case <-deadline:
			t.Fatalf("no line with %q within a minute:\n%s", want, strings.Join(g.seen, "\n"))
		}
	}
}

// wait waits for leaguetui to exit, and requires status 0.
func (g *netnsLeague) wait(t *testing.T, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-g.lines:
			if ok {
				g.seen = append(g.seen, line)
				continue
			}
			if err := <-g.exited; err != nil {
				t.Fatalf("leaguetui: %v, want exit status 0:\n%s", err, strings.Join(g.seen, "\n"))
			}
			return
		case <-deadline:
			t.Fatalf("the league did not finish within %s:\n%s", timeout, strings.Join(g.seen, "\n"))
		}
	}
}
