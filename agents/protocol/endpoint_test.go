package protocol

import "testing"

func TestNormalizeEndpoint(t *testing.T) {
	same := []string{
		"http://127.0.0.1:8101/mcp",
		"http://127.0.0.1:8101/mcp/",
		"HTTP://LOCALHOST:8101/mcp",
		"http://localhost.:8101/mcp//",
		"http://127.0.0.1:8101/./mcp",
		" http://127.0.0.1:8101/mcp ",
		"http://127.0.0.1:08101/mcp",
		"http://127.0.0.1:0008101/mcp/",
	}
	for _, raw := range same {
		got, err := NormalizeEndpoint(raw)
		if err != nil || got != "http://127.0.0.1:8101/mcp" {
			t.Errorf("NormalizeEndpoint(%q) = %q, %v; want http://127.0.0.1:8101/mcp", raw, got, err)
		}
	}
	for raw, want := range map[string]string{
		"http://Example.COM:80/mcp":   "http://example.com/mcp",
		"https://example.com:443/":    "https://example.com",
		"http://[2001:DB8::1]:81/mcp": "http://[2001:db8::1]:81/mcp",
		"http://[::1]:8101/mcp":       "http://[::1]:8101/mcp", // not 127.0.0.1: another socket
		"http://[0:0:0:0:0:0:0:1]:8/": "http://[::1]:8",
		"http://10.0.0.2:8101":        "http://10.0.0.2:8101",
		"http://localhost:9/mcp/?p=1": "http://127.0.0.1:9/mcp?p=1",
		"http://example.com:080/mcp":  "http://example.com/mcp", // the default port by value
		"https://example.com:0443/":   "https://example.com",
		"http://[::1]:031999/mcp":     "http://[::1]:31999/mcp",
	} {
		if got, err := NormalizeEndpoint(raw); err != nil || got != want {
			t.Errorf("NormalizeEndpoint(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	for _, raw := range []string{"", "ftp://x/mcp", "http:///mcp", "http://u:p@127.0.0.1:1/mcp",
		"http://127.0.0.1:1/mcp#a", "mailto:x@y",
		"http://127.0.0.1:0/mcp", "http://127.0.0.1:000/mcp", "http://127.0.0.1:65536/mcp", "http://127.0.0.1:99999999999999999999/mcp", "http://127.0.0.1:1/" + string(make([]byte, 600))} {
		if got, err := NormalizeEndpoint(raw); err == nil {
			t.Errorf("NormalizeEndpoint(%q) = %q, want an error", raw, got)
		}
	}
}
