//go:build unix

package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// TestBenchCommand builds leaguetui once and runs `leaguetui bench` as a
// user would.
func TestBenchCommand(t *testing.T) {
	bin := buildLeaguetui(t)
	t.Run("tiny league", func(t *testing.T) { testTinyLeague(t, bin) })
	t.Run("help", func(t *testing.T) { testHelp(t, bin) })
	t.Run("swiss progress", func(t *testing.T) { testSwissProgress(t, bin) })
	t.Run("SIGTERM", func(t *testing.T) { testSIGTERM(t, bin) })
	t.Run("floor", func(t *testing.T) { testFloor(t, bin) })
	t.Run("SIGTERM in the floor measure", func(t *testing.T) { testSIGTERMInFloor(t, bin) })
	t.Run("cpu profile", func(t *testing.T) { testCPUProfile(t, bin) })
	t.Run("cpu profile from the environment", func(t *testing.T) { testCPUProfileEnv(t, bin) })
	t.Run("cpu profile with players in process", func(t *testing.T) { testCPUProfileHosted(t, bin) })
}

// testCPUProfile: with --cpu-profile every agent writes its profile of
// the league, and the bench prints where the CPU went, by kind of work,
// each role's shares adding up to 100%.
func testCPUProfile(t *testing.T, bin string) {
	dir := filepath.Join(t.TempDir(), "profiles") // made by the bench
	stdout := runBench(t, bin, nil, "--players", "10", "--referees", "3", "--raw-duration", "200ms", "--cpu-profile", dir)
	for role, want := range map[string]int{"manager": 1, "referee": 3, "player": 10} {
		if got, _ := filepath.Glob(filepath.Join(dir, role+"-*.pprof")); len(got) != want {
			t.Errorf("%d %s profiles in %s, want %d: %v", len(got), role, dir, want, got)
		}
	}
	figures, table, found := strings.Cut(stdout, "CPU by kind of work")
	for _, row := range []string{"first tenth CPU/match", "last tenth CPU/match"} {
		if !regexp.MustCompile(regexp.QuoteMeta(row) + `\s+\d+\.\d\d ms\s`).MatchString(figures) {
			t.Errorf("no %q row with the CPU per match of a 45-match league's tenth (/proc's ticks may make it 0.00):\n%s", row, figures)
		}
	}
	if !found {
		t.Fatalf("no CPU breakdown after the figures:\n%s", stdout)
	}
	header, headed := "kind of work µs per exchange ms per match player referee manager", false
	sums, rows := [3]int{}, 0
	for _, line := range strings.Split(table, "\n") {
		fields := strings.Fields(line)
		headed = headed || strings.Join(fields, " ") == header
		if len(fields) < 6 || !strings.HasSuffix(fields[len(fields)-1], "%") && fields[len(fields)-1] != "n/a" {
			continue
		}
		shares := fields[len(fields)-3:]
		if fields[0] == "all" {
			for _, s := range shares {
				if s != "100%" && s != "n/a" {
					t.Errorf("the \"all\" row's share %s, want 100%%:\n%s", s, table)
				}
			}
			continue
		}
		rows++
		for i, s := range shares {
			var pct int
			if _, err := fmt.Sscanf(s, "%d%%", &pct); err == nil {
				sums[i] += pct
			}
		}
	}
	if !headed || rows == 0 {
		t.Fatalf("no rows under %q:\n%s", header, table)
	}
	// Each row is rounded to a whole percent: the sum may be off by half a
	// point a row.
	for i, role := range []string{"player", "referee", "manager"} {
		if sums[i] != 0 && (sums[i] < 100-rows/2-1 || sums[i] > 100+rows/2+1) {
			t.Errorf("%s shares add up to %d%% over %d rows:\n%s", role, sums[i], rows, table)
		}
	}
	if sums == [3]int{} {
		t.Errorf("no role has a share:\n%s", table)
	}
}

// testCPUProfileEnv: LEAGUETUI_CPUPROFILE still profiles the agents, and
// --json carries the breakdown, each role's shares adding up to 1.
func testCPUProfileEnv(t *testing.T, bin string) {
	dir := t.TempDir()
	stdout := runBench(t, bin, []string{"LEAGUETUI_CPUPROFILE=" + dir}, "--players", "4", "--referees", "2", "--raw-duration", "200ms", "--json")
	var report map[string]any
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if n, _ := number(report, "cpu_breakdown.profiles"); n != 7 {
		t.Errorf("cpu_breakdown.profiles = %v, want 7 (the manager, 2 referees, 4 players)", lookup(report, "cpu_breakdown.profiles"))
	}
	kinds, _ := lookup(report, "cpu_breakdown.kinds").([]any)
	if len(kinds) == 0 {
		t.Fatalf("no cpu_breakdown.kinds:\n%s", stdout)
	}
	for _, role := range []string{"manager", "referees", "players"} {
		sum, known := 0.0, false
		for _, k := range kinds {
			if share, ok := number(k.(map[string]any), "share."+role); ok {
				sum, known = sum+share, true
			}
		}
		if known && math.Abs(sum-1) > 1e-6 {
			t.Errorf("%s shares add up to %v, want 1", role, sum)
		}
	}
}

// testCPUProfileHosted: with --players-in-process the players' profile is
// the bench process's own, read beside the manager's and the referees'.
func testCPUProfileHosted(t *testing.T, bin string) {
	dir := t.TempDir()
	stdout := runBench(t, bin, nil, "--players", "4", "--referees", "2", "--raw-duration", "200ms",
		"--players-in-process", "--cpu-profile", dir, "--json")
	var report map[string]any
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if n, _ := number(report, "cpu_breakdown.profiles"); n != 4 {
		t.Errorf("cpu_breakdown.profiles = %v, want 4 (the manager, 2 referees, the bench's players)", lookup(report, "cpu_breakdown.profiles"))
	}
	if found, _ := filepath.Glob(filepath.Join(dir, "bench-players-*.pprof")); len(found) != 1 {
		t.Errorf("the bench's players' profiles: %v, want one bench-players-<pid>.pprof", found)
	}
}

// runBench runs leaguetui bench with args and env added and returns its
// stdout.
func runBench(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"bench"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("leaguetui bench: %v\nstderr:\n%s", err, stderr.String())
	}
	return stdout.String()
}

// testSIGTERMInFloor: SIGTERM while the floor measure's processes run
// stops them all and ends the bench, which says why.
func testSIGTERMInFloor(t *testing.T, bin string) {
	sigtermWhen(t, bin, []string{"bench", "--players", "4", "--referees", "2", "--raw-duration", "3s"},
		"the floor measure's processes", func(stderr string) bool {
			return strings.Contains(stderr, "bench: floor measure") && len(processesOf(bin)) >= 4
		})
}

// testFloor: the table's floor rows, from a league big enough (180
// matches, some 0.7 s of CPU over 13 processes) that its CPU per match is
// read finely enough for the ratio (45 matches no longer were: the bench
// refuses a ratio whose reading may be off by a quarter), set the floor
// beside the league: positive figures, consistent with each other, the
// floor measured before and after the league and pooled, its CPU per
// match under the league's. Nothing about speed.
func testFloor(t *testing.T, bin string) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc for the processes' CPU")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	profiles := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "bench", "--players", "10", "--referees", "2", "--games-per-pair", "4", "--raw-duration", "500ms", "--cpu-profile", profiles)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("leaguetui bench: %v\nstderr:\n%s", err, stderr.String())
	}
	table := stdout.String()
	for _, when := range []string{"before the league", "after the league"} {
		if !strings.Contains(stderr.String(), "bench: floor measure, 10 server and 2 client processes, 8 exchanges in flight for 500ms, "+when) {
			t.Errorf("no floor progress %s on stderr:\n%s", when, stderr.String())
		}
	}
	before := figure(t, table, `2 measures pooled: ([0-9.]+) µs before the league, [0-9.]+ µs after the league`)
	after := figure(t, table, `2 measures pooled: [0-9.]+ µs before the league, ([0-9.]+) µs after the league`)
	perExchange := figure(t, table, `floor CPU per exchange +([0-9.]+) µs +HTTP alone between processes: 10 server and 2 client processes, one P each, 8 in flight`)
	perMatch := figure(t, table, `floor CPU per match +([0-9.]+) ms`)
	exchangesPerMatch := figure(t, table, `x ([0-9.]+) exchanges per match; league CPU per match`)
	leaguePerMatch := figure(t, table, `league CPU per match ([0-9.]+) ms = x[0-9.]+ the floor`)
	floorMatches := figure(t, table, `floor matches/s +([0-9.]+) `)
	leagueMatches := figure(t, table, `league matches/s ([0-9.]+) = x[0-9.]+ below the floor's`)
	if ratio := figure(t, table, `at the floor \(HTTP alone between processes\), which would make ([0-9.]+)`); ratio <= 0 {
		t.Errorf("the floor's ratio %v is not positive:\n%s", ratio, table)
	}
	if perExchange <= 0 || exchangesPerMatch <= 0 || floorMatches <= 0 || leagueMatches <= 0 {
		t.Errorf("floor figures not all positive:\n%s", table)
	}
	if before <= 0 || after <= 0 || perExchange < min(before, after)-1 || perExchange > max(before, after)+1 {
		t.Errorf("the pooled floor %v µs is not between its measures' %v and %v µs (to a µs of rounding):\n%s", perExchange, before, after, table)
	}
	if want := perExchange * exchangesPerMatch / 1000; perMatch < want*0.9-0.01 || perMatch > want*1.1+0.01 {
		t.Errorf("floor CPU per match %v ms, want %v µs x %v exchanges:\n%s", perMatch, perExchange, exchangesPerMatch, table)
	}
	if perMatch >= leaguePerMatch {
		t.Errorf("the floor's CPU per match %v ms is not under the league's %v ms:\n%s", perMatch, leaguePerMatch, table)
	}
	if floorMatches <= leagueMatches {
		t.Errorf("floor matches/s %v not above the league's %v:\n%s", floorMatches, leagueMatches, table)
	}
	if left := processesOf(bin); len(left) > 0 {
		t.Errorf("processes left running after bench: %v", left)
	}
	if !regexp.MustCompile(`The floor by kind of work, from its 24 CPU profiles`).MatchString(table) ||
		!regexp.MustCompile(`\nall +[0-9]+ +[0-9]+ +[-+][0-9]+\n`).MatchString(table[strings.Index(table, "The floor by kind"):]) {
		t.Errorf("no floor by kind of work after the league's:\n%s", table)
	}
	for kind, want := range map[string]int{"floor-server": 2 * 10, "floor-client": 2 * 2} { // two measures
		paths, _ := filepath.Glob(filepath.Join(profiles, kind+"-*.pprof"))
		if len(paths) != want {
			t.Errorf("%d %s profiles in --cpu-profile's folder, want %d", len(paths), kind, want)
		}
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err == nil {
				_, err = profile.ParseData(data)
			}
			if err != nil {
				t.Errorf("%s is no CPU profile: %v", path, err)
			}
		}
	}
}

// figure is the number the first group of pattern matches in the table.
func figure(t *testing.T, table, pattern string) float64 {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(table)
	if m == nil {
		t.Errorf("table lacks %s:\n%s", pattern, table)
		return 0
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Errorf("%s: %v", pattern, err)
	}
	return v
}

// testSIGTERM: SIGTERM while the bench starts its agents stops every agent
// it started and ends the bench, which says why.
func testSIGTERM(t *testing.T, bin string) {
	// The manager and two more agents run: the bench starts them one at a
	// time, 19 in all.
	sigtermWhen(t, bin, []string{"bench", "--players", "16", "--referees", "2", "--raw-duration", "100ms"},
		"3 agents", func(string) bool { return len(processesOf(bin)) >= 4 })
}

// sigtermWhen runs bin with args, sends it SIGTERM once ready (given what
// it wrote on stderr so far) says so, waiting at most two minutes for
// what, and checks that it ends as a stopped bench and leaves no process
// of bin running.
func sigtermWhen(t *testing.T, bin string, args []string, what string, ready func(stderr string) bool) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc to list the agents")
	}
	stderrPath := filepath.Join(t.TempDir(), "stderr")
	stderr, err := os.Create(stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	cmd := exec.Command(bin, args...)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		_ = cmd.Process.Kill() // only if the test failed before it ended
		<-exited
	}()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		out, _ := os.ReadFile(stderrPath)
		if ready(string(out)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after two minutes:\n%s", what, out)
		}
	}
	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-exited:
		exited <- err
	case <-time.After(time.Minute):
		t.Fatal("bench still running a minute after SIGTERM")
	}
	out, _ := os.ReadFile(stderrPath)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "bench stopped before it finished") {
		t.Errorf("bench ended with %v after SIGTERM, stderr:\n%s", err, out)
	}
	if left := processesOf(bin); len(left) > 0 {
		t.Errorf("processes left running after SIGTERM: %v", left)
	}
}

// testSwissProgress: a Swiss league's progress lines count every round,
// those paired later included, up to the last match.
func testSwissProgress(t *testing.T, bin string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "bench", "--players", "6", "--referees", "2", "--format", "swiss", "--rounds", "3",
		"--raw-duration", "100ms", "--seed", "5")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("leaguetui bench: %v\nstderr:\n%s", err, stderr.String())
	}
	for _, want := range []string{"bench: league started: 9 matches", "bench: 6/9 matches in", "bench: 9/9 matches in"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("no %q on stderr:\n%s", want, stderr.String())
		}
	}
}

// testTinyLeague is the short bench run for CI: a tiny league, checking
// that every figure is there and sane. It asserts nothing about speed.
// Each pair plays three games: the league's CPU is read from /proc in
// 10 ms ticks, and six matches (some 25 ms of CPU over seven processes)
// could read as none.
func testTinyLeague(t *testing.T, bin string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "bench", "--players", "4", "--referees", "2", "--games-per-pair", "3",
		"--raw-duration", "300ms", "--json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("leaguetui bench: %v\nstderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "bench: league started: 18 matches") {
		t.Errorf("no progress on stderr:\n%s", stderr.String())
	}

	var report map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout.String())
	}
	for _, path := range []string{
		"raw.concurrency", "raw.seconds", "raw.exchanges", "raw.exchanges_per_second", "raw.request_bytes", "raw.response_bytes",
		"league.players", "league.referees", "league.matches", "league.wall_seconds", "league.matches_per_second",
		"league.exchanges", "league.exchanges_per_second", "league.exchanges_per_match",
		"league.match_p50_ms", "league.match_p99_ms", "ratio", "cpus",
	} {
		if v, ok := number(report, path); !ok || v <= 0 {
			t.Errorf("%s = %v, want a number > 0", path, lookup(report, path))
		}
	}
	if v, _ := number(report, "league.processes"); v != 7 {
		t.Errorf("league.processes = %v, want the manager, 2 referees and 4 players", v)
	}
	if v, ok := number(report, "league.startup_seconds"); !ok || v <= 0 {
		t.Errorf("league.startup_seconds = %v", lookup(report, "league.startup_seconds"))
	}
	if v, _ := number(report, "league.matches"); v != 18 {
		t.Errorf("league.matches = %v, want 18 (4 players, a round robin of three games a pair)", v)
	}
	if v, _ := number(report, "raw.concurrency"); v != 8 {
		t.Errorf("raw.concurrency = %v, want 2 referees x 2 matches x 2 = 8", v)
	}
	p50, _ := number(report, "league.match_p50_ms")
	p99, _ := number(report, "league.match_p99_ms")
	if p50 > p99 {
		t.Errorf("p50 %v > p99 %v", p50, p99)
	}
	if _, err := os.Stat("/proc/self/status"); err == nil {
		peak, _ := number(report, "league.manager_peak_memory_bytes")
		if v, ok := number(report, "league.agents_memory_bytes"); !ok || v <= peak/2 {
			t.Errorf("agents_memory_bytes = %v for 7 agents, the manager's peak alone %v", lookup(report, "league.agents_memory_bytes"), peak)
		}
		if v, ok := number(report, "league.manager_peak_memory_bytes"); !ok || v <= 0 {
			t.Errorf("manager_peak_memory_bytes = %v with /proc present", lookup(report, "league.manager_peak_memory_bytes"))
		}
		if _, ok := lookup(report, "league.cpu_seconds").(map[string]any); !ok {
			t.Errorf("cpu_seconds = %v with /proc present", lookup(report, "league.cpu_seconds"))
		}
		for _, path := range []string{"floor.exchanges", "floor.cpu_per_exchange_us", "floor.cpu_per_match_ms",
			"floor.matches_per_second", "floor.league_cpu_per_match_ms", "floor.ratio_to_raw", "raw.cpu_per_exchange_us",
			"league.data_file_cpu_us"} {
			if v, ok := number(report, path); !ok || v <= 0 {
				t.Errorf("%s = %v, want a number > 0", path, lookup(report, path))
			}
		}
		// Seven processes' CPU read in 10 ms ticks: the ratio to the floor
		// is there only when the readings are fine enough, and said to be
		// refused otherwise; never 0.
		ratio, refused := lookup(report, "floor.league_cpu_to_floor"), lookup(report, "floor.league_cpu_to_floor_refused")
		if v, ok := ratio.(float64); (ok && (v <= 0 || refused != nil)) || (!ok && (ratio != nil || refused == nil)) {
			t.Errorf("floor.league_cpu_to_floor = %v, refused %v: want a ratio > 0 or a reason", ratio, refused)
		}
		if v, _ := number(report, "floor.servers"); v != 4 {
			t.Errorf("floor.servers = %v, want one for each of the 4 players", v)
		}
		if left := processesOf(bin); len(left) > 0 {
			t.Errorf("agents left running after bench: %v", left)
		}
	}
}

// testHelp checks that --help explains the figures and the ratio.
func testHelp(t *testing.T, bin string) {
	out, err := exec.Command(bin, "bench", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("bench --help: %v\n%s", err, out)
	}
	for _, want := range []string{"raw HTTP exchanges/s", "league matches/s", "match duration p50", "VmHWM", "league CPU",
		"Reading the ratio", "floor CPU per exchange", "concurrency", "raw-duration", "keep-data", "move-timeout", "cpu-profile"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

// buildLeaguetui builds the command into the test's temporary folder.
func buildLeaguetui(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "leaguetui")
	out, err := exec.Command(goTool(), "build", "-o", bin, "github.com/leaguetui/leaguetui/cmd/leaguetui").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func goTool() string {
	if root := os.Getenv("GOROOT"); root != "" {
		return filepath.Join(root, "bin", "go")
	}
	return "go"
}

func lookup(doc map[string]any, path string) any {
	var v any = doc
	for _, key := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[key]
	}
	return v
}

func number(doc map[string]any, path string) (float64, bool) {
	v, ok := lookup(doc, path).(float64)
	return v, ok
}

// processesOf lists the pids whose command runs bin, from /proc.
func processesOf(bin string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.HasPrefix(string(cmdline), bin+"\x00") {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
