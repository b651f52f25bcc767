package node

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/rpc"
)

// ContactEndpoint is the /mcp URL this agent registers with the manager at
// managerURL: --advertise when given; else where it listens, with a wildcard
// address (0.0.0.0, ::) replaced by this machine's address on the route to
// the manager. An address the manager could not reach (a wildcard, or
// loopback while the manager is on another machine) is an error naming
// the flag to set, rather than a registration every call to it would fail.
func (n *Node) ContactEndpoint(managerURL string) (string, error) {
	endpoint, err := n.contactEndpoint(managerURL)
	if err != nil {
		return "", err
	}
	n.mu.Lock()
	n.advertised = endpoint
	n.mu.Unlock()
	return endpoint, nil
}

func (n *Node) contactEndpoint(managerURL string) (string, error) {
	if n.Cfg.Network.Advertise != "" {
		return advertised(n.Cfg.Network.Advertise), nil
	}
	n.mu.RLock()
	l := n.listening
	n.mu.RUnlock()
	if l == nil {
		return "", fmt.Errorf("the agent is not listening yet")
	}
	host, port, err := net.SplitHostPort(l.Addr)
	if err != nil {
		return "", err
	}
	addr, ip := l.Addr, net.ParseIP(host)
	if ip != nil && ip.IsUnspecified() {
		addr = rpc.LocalAddr(l.Addr) // enough for a manager on this machine
		if routed, err := routeTo(managerURL); err == nil {
			addr, ip = net.JoinHostPort(routed.String(), port), routed
		}
	}
	if unreachable(ip) && !managerIsLocal(managerURL) {
		return "", fmt.Errorf("this agent listens on %s, which the manager at %s cannot reach from another machine: "+
			"pass --advertise URL (this agent's /mcp URL as the manager reaches it, e.g. http://203.0.113.7:%s/mcp) "+
			"or --host with an address of this machine", l.Addr, managerURL, port)
	}
	return l.Scheme + "://" + addr + "/mcp", nil
}

// advertised completes an --advertise URL without a path with /mcp.
func advertised(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Path != "" && u.Path != "/") {
		return raw
	}
	u.Path = "/mcp"
	return u.String()
}

// unreachable is an address no other machine can reach this one at.
func unreachable(ip net.IP) bool {
	return ip != nil && (ip.IsUnspecified() || ip.IsLoopback())
}

// routeTo is this machine's address on the route to the manager: the local
// address of a UDP socket "connected" to it, which sends no packet.
func routeTo(managerURL string) (net.IP, error) {
	u, err := url.Parse(managerURL)
	if err != nil {
		return nil, err
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443"}[u.Scheme]
		if port == "" {
			port = "80"
		}
	}
	conn, err := net.Dial("udp", net.JoinHostPort(u.Hostname(), port))
	if err != nil {
		return nil, fmt.Errorf("no route to the manager at %s: %w", managerURL, err)
	}
	defer conn.Close()
	addr, ok := conn.LocalAddr().(*net.UDPAddr)
	if !ok {
		return nil, fmt.Errorf("no local address towards %s", managerURL)
	}
	return addr.IP, nil
}

// managerIsLocal reports a manager on this machine's loopback (or a
// wildcard address, which connects locally): a name is resolved, and it is
// local only when every address it has is.
func managerIsLocal(managerURL string) bool {
	u, err := url.Parse(managerURL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		return unreachable(ip)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if !unreachable(a.IP) {
			return false
		}
	}
	return true
}
