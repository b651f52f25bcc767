package security_test

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

// TestListenOnLoopback starts every kind of agent without --host, and
// others told 127.0.0.1 by --host or LEAGUETUI_HOST (localhost standing for
// it), and checks each one's endpoint, what its /health says, and, from
// /proc, every socket the process listens on: all on 127.0.0.1.
func TestListenOnLoopback(t *testing.T) {
	t.Parallel()
	if !leaguetest.HaveProc() {
		t.Skip("no /proc here: cannot list the agents' listening sockets")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "test-output")
	mgr := leaguetest.StartManager(t, dir, randomToken(t, "adm"))
	agents := []*process.Child{
		mgr,
		leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01"),
		leaguetest.StartPlayer(t, dir, mgr.Endpoint, "plain"),
		leaguetest.StartPlayer(t, dir, mgr.Endpoint, "flag", "--host", "127.0.0.1"),
		leaguetest.StartPlayer(t, dir, mgr.Endpoint, "localhost", "--host", "localhost"),
		leaguetest.Start(t, "referee env", out, true, []string{"LEAGUETUI_HOST=127.0.0.1", "LEAGUETUI_REFEREE_KEY=" + leaguetest.RefereeKey},
			"referee", "--port", "0", "--data", dir, "--manager", mgr.Endpoint, "--name", "REF02"),
	}
	for _, c := range agents {
		t.Run(c.Name, func(t *testing.T) {
			endpoint, err := url.Parse(c.Endpoint)
			if err != nil || endpoint.Hostname() != "127.0.0.1" {
				t.Errorf("endpoint %s (%v), want one on 127.0.0.1", c.Endpoint, err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			health, err := control.New(c.Endpoint, "").Health(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if health.Endpoint != c.Endpoint {
				t.Errorf("/health says endpoint %v, want %s", health.Endpoint, c.Endpoint)
			}
			sockets := listeningSockets(t, c.PID())
			if len(sockets) == 0 {
				t.Fatalf("process %d listens on no TCP socket", c.PID())
			}
			for _, addr := range sockets {
				if addr != endpoint.Host {
					t.Errorf("process %d listens on %s; its only socket should be its endpoint's, %s", c.PID(), addr, endpoint.Host)
				}
			}
		})
	}
}

// listeningSockets lists the addresses of the TCP sockets process pid
// listens on, IPv4 and IPv6, from /proc.
func listeningSockets(t *testing.T, pid int) []string {
	t.Helper()
	inodes := map[string]bool{}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(inode, "]")] = true
		}
	}
	var addrs []string
	for _, table := range []string{"tcp", "tcp6"} {
		f, err := os.Open(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			continue // no IPv6 here
		}
		scanner := bufio.NewScanner(f)
		scanner.Scan() // the header
		for scanner.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			fields := strings.Fields(scanner.Text())
			const listen = "0A"
			if len(fields) < 10 || fields[3] != listen || !inodes[fields[9]] {
				continue
			}
			addrs = append(addrs, procAddress(t, fields[1]))
		}
		f.Close()
	}
	return addrs
}

// procAddress decodes /proc/net/tcp's "0100007F:1F90": the address in
// 32-bit words of host byte order (little-endian here), the port in hex.
func procAddress(t *testing.T, s string) string {
	t.Helper()
	hexIP, hexPort, _ := strings.Cut(s, ":")
	raw, err := hex.DecodeString(hexIP)
	port, perr := strconv.ParseUint(hexPort, 16, 16)
	if err != nil || perr != nil || len(raw)%4 != 0 {
		t.Fatalf("cannot read the /proc address %q", s)
	}
	for i := 0; i < len(raw); i += 4 {
		raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
	}
	return net.JoinHostPort(net.IP(raw).String(), strconv.FormatUint(port, 10))
}
