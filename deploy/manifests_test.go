// The deployment files are checked against leaguetui itself: every
// Kubernetes manifest and the Compose file are loaded strictly with their
// own projects' types and loaders, and every command, flag, environment
// variable, port, probe and secret they name must be one leaguetui has, as
// the binary built from this repository says in its --help.
package deploy_test

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// agentCommands are the leaguetui commands a deployment runs.
var agentCommands = []string{"manager", "referee", "player", "probe"}

// cli is what leaguetui's --help says of each command: its flags and the
// environment variables it reads.
type cli struct {
	flags map[string]map[string]bool // command → flag names (no dashes)
	env   map[string]map[string]bool // command → LEAGUETUI_* variables
}

var (
	cliOnce sync.Once
	cliDesc cli
	cliErr  error
)

// leaguetuiCLI builds leaguetui from the repository and reads its --help
// for every agent command.
func leaguetuiCLI(t *testing.T) cli {
	t.Helper()
	cliOnce.Do(func() { cliDesc, cliErr = readCLI() })
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return cliDesc
}

var (
	flagLine = regexp.MustCompile(`(?m)^\s+-([a-z0-9][a-z0-9-]*)`)
	envName  = regexp.MustCompile(`LEAGUETUI_[A-Z0-9_]*[A-Z0-9]`)
)

func readCLI() (cli, error) {
	dir, err := os.MkdirTemp("", "leaguetui-cli")
	if err != nil {
		return cli{}, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "leaguetui")
	build := exec.Command(goTool(), "build", "-o", bin, "./cmd/leaguetui")
	build.Dir = filepath.Join("..")
	if out, err := build.CombinedOutput(); err != nil {
		return cli{}, fmt.Errorf("go build: %v\n%s", err, out)
	}
	c := cli{flags: map[string]map[string]bool{}, env: map[string]map[string]bool{}}
	for _, cmd := range agentCommands {
		out, err := exec.Command(bin, cmd, "--help").Output()
		if err != nil {
			return cli{}, fmt.Errorf("leaguetui %s --help: %v", cmd, err)
		}
		c.flags[cmd], c.env[cmd] = map[string]bool{}, map[string]bool{}
		for _, m := range flagLine.FindAllStringSubmatch(string(out), -1) {
			c.flags[cmd][m[1]] = true
		}
		for _, name := range envName.FindAllString(string(out), -1) {
			c.env[cmd][name] = true
		}
	}
	return c, nil
}

func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// agent is one container of a deployment as the checks see it, whatever
// file it came from.
type agent struct {
	where   string   // the file and the workload, for messages
	args    []string // leaguetui's arguments: the command first
	env     []string // the names of its environment variables
	ports   []int    // the ports it declares
	mounts  []string // where volumes are mounted in it
	probes  [][]string
	healthz []int // ports its HTTP probes of /health reach
}

// flagValue is the value of --name in args ("" when absent).
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == "--"+name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

// checkAgent holds one agent to what leaguetui has: a command, its flags,
// its variables, a --port it declares, its data folder on a volume, and
// probes that ask leaguetui probe or GET /health on that port.
func checkAgent(t *testing.T, c cli, a agent) {
	t.Helper()
	if len(a.args) == 0 || !slices.Contains(agentCommands[:3], a.args[0]) {
		t.Errorf("%s: runs %q, not one of leaguetui's agent commands %v", a.where, a.args, agentCommands[:3])
		return
	}
	cmd := a.args[0]
	checkFlags(t, a.where, c.flags[cmd], a.args[1:])
	for _, name := range a.env {
		if strings.HasPrefix(name, "LEAGUETUI_") && !c.env[cmd][name] {
			t.Errorf("%s: sets %s, which leaguetui %s does not read", a.where, name, cmd)
		}
	}
	port, err := strconv.Atoi(flagValue(a.args, "port"))
	if err != nil || !slices.Contains(a.ports, port) {
		t.Errorf("%s: --port %q is not one of the ports it declares %v", a.where, flagValue(a.args, "port"), a.ports)
	}
	if data := flagValue(a.args, "data"); data == "" || !slices.Contains(a.mounts, data) {
		t.Errorf("%s: --data %q is not on a volume (mounts %v)", a.where, data, a.mounts)
	}
	if len(a.probes)+len(a.healthz) == 0 {
		t.Errorf("%s: no health check", a.where)
	}
	for _, hp := range a.healthz {
		if hp != port {
			t.Errorf("%s: a probe of /health reaches port %d, the agent listens on %d", a.where, hp, port)
		}
	}
	for _, probe := range a.probes {
		if len(probe) < 3 || filepath.Base(probe[0]) != "leaguetui" || probe[1] != "probe" {
			t.Errorf("%s: health check %q is not leaguetui probe URL", a.where, probe)
			continue
		}
		checkFlags(t, a.where+" probe", c.flags["probe"], probe[2:len(probe)-1])
		u, err := url.Parse(probe[len(probe)-1])
		if err != nil || u.Port() != strconv.Itoa(port) {
			t.Errorf("%s: leaguetui probe %q does not ask port %d", a.where, probe[len(probe)-1], port)
		}
	}
}

func checkFlags(t *testing.T, where string, known map[string]bool, args []string) {
	t.Helper()
	for _, arg := range args {
		name, ok := strings.CutPrefix(arg, "--")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		if !known[name] {
			t.Errorf("%s: --%s is not a flag of leaguetui", where, name)
		}
	}
}

// endpointHost is the host and port of an /mcp URL in a flag's value.
func endpointHost(t *testing.T, where, raw string) (host string, port int) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Path != "/mcp" {
		t.Errorf("%s: %q is not an /mcp URL", where, raw)
		return "", 0
	}
	port, _ = strconv.Atoi(u.Port())
	return u.Hostname(), port
}

// k8sVar is Kubernetes' $(VAR) in a container's arguments.
var k8sVar = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
