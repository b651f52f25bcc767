// Package leaguetest holds what the tests of leaguetui's agents share: the
// leaguetui binary built once for a whole test run, agents started as real
// processes (and stopped by their PID), JSON-RPC calls over real HTTP, the
// league's event feed, and a look at /proc for processes left behind.
package leaguetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

// MainPackage is the import path of the leaguetui command.
const MainPackage = "github.com/leaguetui/leaguetui/cmd/leaguetui"

var (
	buildOnce sync.Once
	buildDir  string
	binPath   string
	buildErr  error
)

// Main runs a package's tests and then removes the binaries built for
// this package alone (BinaryWithGames, BadPlayerBinary); Binary's stays
// in the shared folder for the next package and the next run. Call it
// from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// Binary returns the path of the leaguetui binary, built the first time a
// test of this test binary asks for it and shared with the other packages'
// tests (shared.go); with -race when the tests run with -race, so that the
// agent processes are checked too (see CheckNoDataRace).
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() { binPath, buildErr = sharedBinary() })
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// gameBinaries caches BinaryWithGames by its packages.
var gameBinaries = struct {
	sync.Mutex
	paths map[string]string
}{paths: map[string]string{}}

// BinaryWithGames returns a leaguetui binary that also holds the games (and
// their strategies) of the given packages, which register themselves when
// imported. The command's source is not touched: a build overlay adds one
// file of blank imports to its package, so games that live in tests reach
// real referee and player processes while the production binary never
// holds them.
func BinaryWithGames(t testing.TB, packages ...string) string {
	t.Helper()
	key := strings.Join(packages, " ")
	gameBinaries.Lock()
	defer gameBinaries.Unlock()
	if path, ok := gameBinaries.paths[key]; ok {
		return path
	}
	overlay, err := gamesOverlay(t.TempDir(), packages)
	if err != nil {
		t.Fatal(err)
	}
	path, err := build(MainPackage, fmt.Sprintf("leaguetui-games-%d", len(gameBinaries.paths)), "-overlay", overlay)
	if err != nil {
		t.Fatal(err)
	}
	gameBinaries.paths[key] = path
	return path
}

// gamesOverlay writes, in dir, a Go file of blank imports of packages and
// the overlay that places it in the leaguetui command's folder.
func gamesOverlay(dir string, packages []string) (string, error) {
	out, err := exec.Command(goTool(), "list", "-f", "{{.Dir}}", MainPackage).Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w", MainPackage, err)
	}
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n")
	for _, pkg := range packages {
		fmt.Fprintf(&src, "\t_ %q\n", pkg)
	}
	src.WriteString(")\n")
	file := filepath.Join(dir, "games.go")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		return "", err
	}
	overlay, err := json.Marshal(map[string]any{"Replace": map[string]string{
		filepath.Join(strings.TrimSpace(string(out)), "zz_test_games.go"): file}})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, overlay, 0o644)
}

// buildMu guards buildDir, which every build shares so that Main removes
// them all.
var buildMu sync.Mutex

// build runs `go build` of pkg into the shared build folder as name, with
// -race when the tests run with -race, and with any extra build flags.
func build(pkg, name string, flags ...string) (string, error) {
	buildMu.Lock()
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "leaguetest-bin-")
		if err != nil {
			buildMu.Unlock()
			return "", err
		}
		buildDir = dir
	}
	path := filepath.Join(buildDir, name)
	buildMu.Unlock()
	args := []string{"build", "-o", path}
	if raceEnabled {
		args = append(args, "-race")
	}
	args = append(args, flags...)
	cmd := exec.Command(goTool(), append(args, pkg)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	return path, nil
}

// ChildEnv is what the agent processes get beside the test's environment:
// with -race, no second of sleep at exit (the detector's default, which
// would make every stop of an agent last a second). Reports are still
// written, see CheckNoDataRace.
func ChildEnv() []string {
	if !raceEnabled {
		return nil
	}
	return []string{"GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")}
}

func goTool() string {
	if path, err := exec.LookPath("go"); err == nil {
		return path
	}
	if root := os.Getenv("GOROOT"); root != "" {
		return filepath.Join(root, "bin", "go")
	}
	return "go"
}

// ReadyTimeout bounds how long an agent may take to listen and register.
const ReadyTimeout = 30 * time.Second

// Start runs one agent command of the binary (manager, referee, player or
// pages) until the test ends. Its stderr goes to a file in outDir, shown
// in the test log if the test fails. The process is stopped by its PID at
// cleanup. args may hold config flags for the whole league, as a
// launcher's do: the command gets those it reads (config.ArgsFor).
func Start(t testing.TB, name, outDir string, register bool, env []string, args ...string) *process.Child {
	t.Helper()
	return StartProgram(t, Binary(t), name, outDir, register, env, commandArgs(args)...)
}

// commandArgs is args (a command and its flags) without the config flags
// the command does not read.
func commandArgs(args []string) []string {
	if len(args) == 0 {
		return args
	}
	if _, ok := config.CommandFlags[args[0]]; !ok {
		return args
	}
	return append([]string{args[0]}, config.ArgsFor(args[0], args[1:])...)
}

// StartInNetns is Start inside the Linux network namespace netns, through
// `ip netns exec` (which execs the binary: the PID stays the agent's).
func StartInNetns(t testing.TB, netns, name, outDir string, register bool, env []string, args ...string) *process.Child {
	t.Helper()
	ip, err := exec.LookPath("ip")
	if err != nil {
		SkipWithout(t, fmt.Sprintf("no ip command (iproute2): %v", err))
	}
	return StartProgram(t, ip, name, outDir, register, env, append([]string{"netns", "exec", netns, Binary(t)}, commandArgs(args)...)...)
}

// StartProgram is Start for any program that prints the ready lines of
// agents/node.
func StartProgram(t testing.TB, exe, name, outDir string, register bool, env []string, args ...string) *process.Child {
	t.Helper()
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(outDir, strings.ReplaceAll(name, " ", "_")+".out")
	child, err := process.Start(context.Background(), exe, process.Spec{
		Name: name, Args: args, Env: append(ChildEnv(), env...), OutputPath: out, Register: register,
	}, ReadyTimeout)
	if err != nil {
		t.Fatalf("start %s: %v\n%s", name, err, tail(out))
	}
	t.Cleanup(func() {
		if err := child.Stop(10 * time.Second); err != nil {
			t.Errorf("stop %s (pid %d): %v", name, child.PID(), err)
		}
		CheckNoDataRace(t, out)
		if t.Failed() {
			t.Logf("stderr of %s (pid %d):\n%s", name, child.PID(), tail(out))
		}
	})
	return child
}

// StartManager runs a league manager on a free port with the admin token.
func StartManager(t testing.TB, dataDir, adminToken string, args ...string) *process.Child {
	t.Helper()
	all := append([]string{"manager", "--port", "0", "--data", dataDir}, args...)
	return Start(t, "manager", filepath.Join(dataDir, "test-output"), false,
		[]string{"LEAGUETUI_ADMIN_TOKEN=" + adminToken, "LEAGUETUI_REFEREE_KEY=" + RefereeKey}, all...)
}

// RefereeKey is the referee key of the managers and referees the tests
// start: a referee that presents it is admitted.
const RefereeKey = "ref-test-key-0123456789abcdef"

// StartReferee runs a referee on a free port that registers with managerURL.
func StartReferee(t testing.TB, dataDir, managerURL, name string, args ...string) *process.Child {
	t.Helper()
	all := append([]string{"referee", "--port", "0", "--data", dataDir, "--manager", managerURL, "--name", name}, args...)
	return Start(t, "referee "+name, filepath.Join(dataDir, "test-output"), true, []string{"LEAGUETUI_REFEREE_KEY=" + RefereeKey}, all...)
}

// StartPlayer runs a player on a free port that registers with managerURL.
func StartPlayer(t testing.TB, dataDir, managerURL, name string, args ...string) *process.Child {
	t.Helper()
	all := append([]string{"player", "--port", "0", "--data", dataDir, "--manager", managerURL, "--name", name}, args...)
	return Start(t, "player "+name, filepath.Join(dataDir, "test-output"), true, nil, all...)
}

// CheckNoDataRace fails the test if an agent's stderr shows a data race
// report of the race detector.
func CheckNoDataRace(t testing.TB, outputs ...string) {
	t.Helper()
	for _, path := range outputs {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if i := bytes.Index(data, []byte("WARNING: DATA RACE")); i >= 0 {
			end := min(len(data), i+6000)
			t.Errorf("data race in the process that wrote %s:\n%s", path, data[i:end])
		}
	}
}

// tail is the end of a file, for failure messages.
func tail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", path, err)
	}
	const keep = 4000
	if len(data) > keep {
		data = data[len(data)-keep:]
	}
	return string(data)
}

// RPCError is the error object of a JSON-RPC response.
type RPCError struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data"`
}

// Reply is a JSON-RPC response as it came back.
type Reply struct {
	Status  int             `json:"-"` // HTTP status
	Body    []byte          `json:"-"` // the raw body
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  map[string]any  `json:"result"`
	Error   *RPCError       `json:"error"`
}

// Post sends body to url as a JSON-RPC POST and decodes the response.
func Post(t testing.TB, url string, body []byte) Reply {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: reading the reply: %v", url, err)
	}
	reply := Reply{Status: resp.StatusCode, Body: raw}
	if err := json.Unmarshal(raw, &reply); err != nil {
		t.Fatalf("POST %s: reply is not a JSON-RPC object: %v\n%s", url, err, raw)
	}
	return reply
}

// Call sends one JSON-RPC request with an integer id.
func Call(t testing.TB, url, method string, params any) Reply {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params, "id": 1})
	if err != nil {
		t.Fatal(err)
	}
	return Post(t, url, body)
}

// String reads a string field of a result.
func (r Reply) String(key string) string {
	s, _ := r.Result[key].(string)
	return s
}

// NextEvents waits on the manager's event feed until an event of one of the
// kinds arrives, or timeout. It returns the events read, the one of those
// kinds last, and the cursor just after it.
func NextEvents(t testing.TB, ctl *control.Client, after int64, timeout time.Duration, kinds ...engine.EventKind) ([]engine.Event, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var seen []engine.Event
	for {
		page, err := ctl.Events(ctx, after, 5*time.Second)
		if err != nil {
			t.Fatalf("waiting for %v on the event feed (after %d events): %v", kinds, len(seen), err)
		}
		for _, ev := range page.Events {
			seen = append(seen, ev)
			for _, k := range kinds {
				if ev.Kind == k {
					// The cursor stops here: the rest of the page is read by the next call.
					return seen, ev.Seq
				}
			}
		}
		after = page.LastSeq
	}
}

// ChildPIDs lists the children of process pid now (Linux /proc).
// Descendants are the processes under pid, its children's children
// included: a league's agents and the programs they run.
func Descendants(pid int) []int {
	children, _ := ChildPIDs(pid)
	all := children
	for _, child := range children {
		all = append(all, Descendants(child)...)
	}
	return all
}

func ChildPIDs(pid int) ([]int, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil {
		return nil, err
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("no /proc/%d/task/*/children", pid)
	}
	var pids []int
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // the thread ended
		}
		for _, field := range strings.Fields(string(data)) {
			var child int
			if _, err := fmt.Sscan(field, &child); err == nil {
				pids = append(pids, child)
			}
		}
	}
	return pids, nil
}

// CommandLine is the command line of process pid, arguments joined by
// spaces, or "" if there is no such process.
func CommandLine(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " "))
}

// ProcessesMentioning lists the live processes whose command line contains
// s, with their command lines (Linux /proc). Zombies, which have no command
// line, are not listed.
func ProcessesMentioning(s string) (map[int]string, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	found := map[int]string{}
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil || !e.IsDir() {
			continue
		}
		if line := CommandLine(pid); strings.Contains(line, s) {
			found[pid] = line
		}
	}
	return found, nil
}

// HaveProc reports whether this system has the /proc the process helpers read.
func HaveProc() bool {
	_, err := os.Stat("/proc/self/task")
	return err == nil
}

// PeerRequest is one JSON-RPC request a fake peer received.
type PeerRequest struct {
	Method string
	Params map[string]any
	ID     json.RawMessage
	Header http.Header
}

// Peer is a fake agent: an HTTP server on 127.0.0.1 whose POST /mcp is
// answered by a function of the request. It closes when the test ends.
type Peer struct {
	Server   *httptest.Server
	Endpoint string // its /mcp URL
}

// NewPeer starts a fake agent. answer returns the HTTP status and body of
// the response; a request that is not JSON gets a parse error.
func NewPeer(t testing.TB, answer func(PeerRequest) (int, []byte)) *Peer {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var req struct {
			Method string          `json:"method"`
			Params map[string]any  `json:"params"`
			ID     json.RawMessage `json:"id"`
		}
		if err != nil || json.Unmarshal(body, &req) != nil {
			writeBody(w, http.StatusOK, ErrorReply(nil, -32700, "parse error"))
			return
		}
		status, out := answer(PeerRequest{Method: req.Method, Params: req.Params, ID: req.ID, Header: r.Header})
		writeBody(w, status, out)
	}))
	t.Cleanup(srv.Close)
	return &Peer{Server: srv, Endpoint: srv.URL + "/mcp"}
}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// ResultReply frames v as the result of the request with this id.
func ResultReply(id json.RawMessage, v any) []byte {
	return frame(id, "result", v)
}

// ErrorReply frames a JSON-RPC error.
func ErrorReply(id json.RawMessage, code int, message string) []byte {
	return frame(id, "error", map[string]any{"code": code, "message": message})
}

func frame(id json.RawMessage, key string, v any) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	out, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, key: v})
	if err != nil {
		panic(err)
	}
	return out
}

// Envelope is the flat league.v2 envelope as a map, for tests that build
// messages by hand, spelling every field the way the wire does.
func Envelope(messageType, sender string) map[string]any {
	return map[string]any{
		"protocol":        "league.v2",
		"message_type":    messageType,
		"sender":          sender,
		"timestamp":       time.Now().UTC().Format("2006-01-02T15:04:05Z"),
		"conversation_id": fmt.Sprintf("conv-test-%d", time.Now().UnixNano()),
	}
}

// With returns a copy of msg with the fields of extra set (a nil value
// deletes the field).
func With(msg map[string]any, extra map[string]any) map[string]any {
	out := make(map[string]any, len(msg)+len(extra))
	for k, v := range msg {
		out[k] = v
	}
	for k, v := range extra {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// UntilCompleted reads the manager's event feed after cursor until the
// league ends, and fails the test unless it completed (rather than being
// stopped). It returns the events read, league_completed last.
func UntilCompleted(t testing.TB, ctl *control.Client, after int64, timeout time.Duration) []engine.Event {
	t.Helper()
	events, _ := NextEvents(t, ctl, after, timeout, engine.EventLeagueCompleted, engine.EventStopped)
	if last := events[len(events)-1]; last.Kind != engine.EventLeagueCompleted {
		t.Fatalf("the league ended with %s, want league_completed", last.Kind)
	}
	return events
}
