package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// PeakMemory is a process's peak resident set size in bytes (VmHWM in
// /proc/<pid>/status). ok is false where there is no /proc (macOS, Windows)
// or the field is missing; the caller then says "n/a".
func PeakMemory(pid int) (bytes int64, ok bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	return parseVmHWM(f)
}

// ProportionalMemory is a process's proportional set size in bytes (Pss
// in /proc/<pid>/smaps_rollup): its private pages and its share of the
// pages it shares, so that the sizes of processes running one binary add
// up to the memory they take together. ok is false where there is no /proc.
func ProportionalMemory(pid int) (bytes int64, ok bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	return parseKB(f, "Pss:")
}

// parseVmHWM reads the "VmHWM:   12345 kB" line of a /proc status file.
func parseVmHWM(r io.Reader) (int64, bool) { return parseKB(r, "VmHWM:") }

// parseKB reads the first "<field>   12345 kB" line of a /proc file.
func parseKB(r io.Reader, field string) (int64, bool) {
	scanner := bufio.NewScanner(r)
	for scanner.Scan() {
		rest, found := strings.CutPrefix(scanner.Text(), field)
		if !found {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}

// RequestsServed sums "requests_served" over the agents' GET /health: the
// JSON-RPC requests each has answered since it started. endpoints are the
// agents' /mcp URLs.
func RequestsServed(ctx context.Context, endpoints []string) (int64, error) {
	c, err := HealthCounts(ctx, endpoints)
	return c.Served, err
}

// Counts are what the agents' GET /health count, summed.
type Counts struct {
	Served int64 // requests_served
	Turns  int64 // turns_played: the turns referees began
}

// HealthCounts sums the counts of the agents' GET /health.
func HealthCounts(ctx context.Context, endpoints []string) (Counts, error) {
	client := &http.Client{Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()
	var total Counts
	for _, endpoint := range endpoints {
		c, err := readCounts(ctx, client, strings.TrimSuffix(endpoint, "/mcp")+"/health")
		if err != nil {
			return Counts{}, err
		}
		total.Served += c.Served
		total.Turns += c.Turns
	}
	return total, nil
}

func readCounts(ctx context.Context, client *http.Client, url string) (Counts, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Counts{}, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return Counts{}, fmt.Errorf("reading requests_served: %w", err)
	}
	defer resp.Body.Close()
	var raw json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
		return Counts{}, fmt.Errorf("reading requests_served from %s: %w", url, err)
	}
	var health protocol.Health
	var fields map[string]json.RawMessage // an agent that does not count is not read as a silent 0
	if err := errors.Join(json.Unmarshal(raw, &health), json.Unmarshal(raw, &fields)); err != nil {
		return Counts{}, fmt.Errorf("reading requests_served from %s: %w", url, err)
	}
	if _, counted := fields["requests_served"]; resp.StatusCode != http.StatusOK || !counted {
		return Counts{}, fmt.Errorf("%s: HTTP %d without requests_served", url, resp.StatusCode)
	}
	return Counts{Served: health.Served, Turns: health.Turns}, nil
}

// userHZ is the unit of the CPU times in /proc/<pid>/stat. The kernel
// reports them in USER_HZ, which is 100 on every Linux architecture Go
// supports; reading sysconf(_SC_CLK_TCK) would need cgo.
const userHZ = 100

// CPUTime is the CPU time (user + system) a process has used so far, from
// /proc/<pid>/stat. ok is false where there is no /proc.
func CPUTime(pid int) (cpu time.Duration, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseStatCPU(string(data))
}

// parseStatCPU reads utime and stime, fields 14 and 15 of a /proc stat
// line.
func parseStatCPU(stat string) (time.Duration, bool) { return parseStatTicks(stat, 14) }

// parseStatTicks reads the two clock-tick fields of a /proc stat line
// that start at field (1-based, as proc(5) numbers them) as one time.
// The command name (field 2) is in parentheses and may hold spaces, so
// fields are counted from the last ')'.
func parseStatTicks(stat string, field int) (time.Duration, bool) {
	end := strings.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, false
	}
	fields := strings.Fields(stat[end+1:]) // fields[0] is field 3, the state
	first := field - 3
	if len(fields) < first+2 {
		return 0, false
	}
	var ticks int64
	for _, f := range fields[first : first+2] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, false
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, true
}
