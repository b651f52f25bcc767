//go:build linux

package hosts_test

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// lanSubnet is the private range the tests give their namespaces. The
// addresses exist only inside namespaces the test makes, so runs side by
// side (each its own namespaces) never see each other's.
const lanSubnet = "10.231.7."

// nsPrefix starts the name of every namespace these tests make, followed
// by the PID of the test process, so a left-over one can be told apart and
// parallel runs never collide.
const nsPrefix = "lthosts"

var lanCount atomic.Int64

// lan is a set of network namespaces ("machines"), each with one veth link
// into a bridge in a hub namespace: one Ethernet segment, nothing shared
// with the host's network.
type lan struct {
	t     *testing.T
	hub   string            // the namespace holding the bridge
	ns    map[string]string // machine -> namespace
	addr  map[string]string // machine -> its IPv4 address
	cable map[string]string // machine -> its link's end in the hub
}

// requireNetns skips unless this process may make network namespaces.
func requireNetns(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to make network namespaces (ip netns add); run as root to test agents on separate network stacks")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		leaguetest.SkipWithout(t, "needs the ip command (iproute2) to make network namespaces")
	}
	probe := fmt.Sprintf("%s%d-probe-%d", nsPrefix, os.Getpid(), lanCount.Add(1))
	if out, err := exec.Command("ip", "netns", "add", probe).CombinedOutput(); err != nil {
		t.Skipf("ip netns is not available here: %v: %s", err, out)
	}
	if out, err := exec.Command("ip", "netns", "del", probe).CombinedOutput(); err != nil {
		t.Fatalf("ip netns del %s: %v: %s", probe, err, out)
	}
	removeOrphans(t)
}

// removeOrphans deletes the namespaces of earlier runs of these tests
// whose process is gone (one killed before its cleanup ran).
func removeOrphans(t *testing.T) {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return
	}
	owner := regexp.MustCompile(`^` + nsPrefix + `(\d+)-`)
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		m := owner.FindStringSubmatch(fields[0])
		if m == nil {
			continue
		}
		pid, _ := strconv.Atoi(m[1])
		if pid == os.Getpid() || syscall.Kill(pid, 0) == nil {
			continue // ours, or a run still going
		}
		if err := exec.Command("ip", "netns", "del", fields[0]).Run(); err == nil {
			t.Logf("removed namespace %s left by process %d", fields[0], pid)
		}
	}
}

// newLAN makes one namespace per machine, numbered from .1 in lanSubnet,
// and removes them all when the test ends, whatever happened.
func newLAN(t *testing.T, machines ...string) *lan {
	t.Helper()
	requireNetns(t)
	id := fmt.Sprintf("%s%d-%d", nsPrefix, os.Getpid(), lanCount.Add(1))
	l := &lan{t: t, hub: id + "-hub", ns: map[string]string{}, addr: map[string]string{}, cable: map[string]string{}}
	l.addNetns(l.hub)
	l.ip("-n", l.hub, "link", "add", "br0", "type", "bridge")
	l.ip("-n", l.hub, "link", "set", "br0", "up")
	for i, m := range machines {
		ns := id + "-" + m
		l.addNetns(ns)
		l.ns[m], l.addr[m], l.cable[m] = ns, lanSubnet+strconv.Itoa(i+1), "v"+strconv.Itoa(i)
		// Made inside the namespaces: no link ever appears on the host.
		l.ip("-n", l.hub, "link", "add", l.cable[m], "type", "veth", "peer", "name", "eth0", "netns", ns)
		l.ip("-n", l.hub, "link", "set", l.cable[m], "master", "br0", "up")
		l.ip("-n", ns, "addr", "add", l.addr[m]+"/24", "dev", "eth0")
		l.ip("-n", ns, "link", "set", "eth0", "up")
		l.ip("-n", ns, "link", "set", "lo", "up")
	}
	return l
}

// addNetns makes a namespace and deletes it at cleanup, which takes its
// links with it. Cleanups run last-in first-out: the agents started in it
// later are stopped before it goes.
func (l *lan) addNetns(name string) {
	l.ip("netns", "add", name)
	l.t.Cleanup(func() {
		if out, err := exec.Command("ip", "netns", "del", name).CombinedOutput(); err != nil {
			l.t.Errorf("ip netns del %s: %v: %s", name, err, out)
		}
	})
}

func (l *lan) ip(args ...string) {
	l.t.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		l.t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// cut unplugs a machine's cable at the bridge; plug puts it back.
func (l *lan) cut(machine string)  { l.ip("-n", l.hub, "link", "set", l.cable[machine], "down") }
func (l *lan) plug(machine string) { l.ip("-n", l.hub, "link", "set", l.cable[machine], "up") }
