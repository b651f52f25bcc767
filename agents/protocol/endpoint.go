package protocol

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"path"
	"strings"
)

// maxEndpointLen bounds a contact endpoint the manager keeps per agent.
const maxEndpointLen = 512

// NormalizeEndpoint is the one spelling of an agent's contact endpoint, so
// that one endpoint is one agent however it is written: the scheme and
// host in lower case, the loopback spellings (localhost, [::1], 127.0.0.1)
// as 127.0.0.1, no default port (80 for http, 443 for https), and the path
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
	port := u.Port()
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

// endpointHost lower-cases a host and writes every loopback spelling as
// 127.0.0.1.
func endpointHost(host string) (string, error) {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return "", errors.New("no host")
	}
	if host == "localhost" || host == "::1" || host == "127.0.0.1" {
		return "127.0.0.1", nil
	}
	return host, nil
}
