package protocol

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"path"
	"strconv"
	"strings"
)

// maxEndpointLen bounds a contact endpoint the manager keeps per agent.
const maxEndpointLen = 512

// NormalizeEndpoint is the one spelling of an agent's contact endpoint, so
// that one endpoint is one agent however it is written: the scheme and
// host in lower case, localhost as 127.0.0.1, an IP address in its
// canonical form ([0:0::1] as [::1]), the port as its number (":031999"
// as ":31999"), no default port (80 for http, 443 for https), and the path
// cleaned without a trailing slash ("/mcp/" and "/mcp" are one); a query
// is kept as it is. It refuses what is not an http(s) URL of a host, and
// URLs with credentials or a fragment, which no agent needs.
func NormalizeEndpoint(raw string) (string, error) {
	if len(raw) > maxEndpointLen {
		return "", fmt.Errorf("endpoint longer than %d bytes", maxEndpointLen)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("endpoint %q is not a URL: %w", Printable(raw), err)
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme != "http" && scheme != "https":
		return "", fmt.Errorf("endpoint %q is not an http or https URL", Printable(raw))
	case u.User != nil || u.Fragment != "" || u.Opaque != "":
		return "", fmt.Errorf("endpoint %q has credentials or a fragment", Printable(raw))
	}
	host, err := endpointHost(u.Hostname())
	if err != nil {
		return "", fmt.Errorf("endpoint %q: %w", Printable(raw), err)
	}
	port, err := endpointPort(u.Port())
	if err != nil {
		return "", fmt.Errorf("endpoint %q: %w", Printable(raw), err)
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	p := u.EscapedPath()
	if p != "" {
		p = strings.TrimSuffix(path.Clean(p), "/")
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return scheme + "://" + host + p, nil
}

// endpointPort writes a port as the number it is (":031999" is ":31999",
// the socket a client reaches either way), "" when there is none. A port
// that no socket can have is refused.
func endpointPort(port string) (string, error) {
	if port == "" {
		return "", nil
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 {
		return "", fmt.Errorf("port %q is not a number from 1 to 65535", Printable(port))
	}
	return strconv.FormatUint(n, 10), nil
}

// endpointHost lower-cases a host and writes every loopback spelling as
// 127.0.0.1.
func endpointHost(host string) (string, error) {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return "", errors.New("no host")
	}
	if host == "localhost" {
		return "127.0.0.1", nil // as --host reads it
	}
	if ip := net.ParseIP(host); ip != nil {
		// One spelling per address; [::1] stays apart from 127.0.0.1: an
		// agent listening on one is not reached at the other.
		return ip.String(), nil
	}
	return host, nil
}
