package control

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
)

// Probe is the answer of one agent's /health, or why there was none.
type Probe struct {
	Endpoint string
	Health   protocol.Health
	Err      error
	At       time.Time // when the answer (or the failure) came
}

// HealthURL turns an agent's /mcp endpoint into its /health URL.
func HealthURL(endpoint string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(endpoint, "/"), "/mcp")
	return base + "/health"
}

// probeAgent reads one agent's /health within timeout. It uses a plain
// http.Client, not the manager client's retries: an agent that does not
// answer at once is what the console wants to see as down.
func probeAgent(ctx context.Context, client *http.Client, endpoint string, timeout time.Duration) Probe {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p := Probe{Endpoint: endpoint}
	p.Health, p.Err = getHealth(ctx, client, HealthURL(endpoint))
	p.At = time.Now()
	return p
}

func getHealth(ctx context.Context, client *http.Client, url string) (protocol.Health, error) {
	var h protocol.Health
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return h, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return h, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return h, fmt.Errorf("GET %s: HTTP %d", url, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		return h, fmt.Errorf("GET %s: %w", url, err)
	}
	protocol.MakePrintable(&h) // any agent may answer: shown as it is escaped
	return h, nil
}

// ProbeAgents probes every endpoint, at most parallel at a time, each within
// timeout, and returns the answers in the order of endpoints. Bounding the
// parallelism keeps a league of hundreds of players from opening hundreds of
// connections at once.
func ProbeAgents(ctx context.Context, endpoints []string, parallel int, timeout time.Duration) []Probe {
	// Any agent may answer: its /health is read up to a league message's cap.
	client := &http.Client{Transport: rpc.CapReplies(&http.Transport{TLSClientConfig: tlsconf.Client(), Proxy: http.ProxyFromEnvironment},
		rpc.MaxBodyBytes)}
	defer client.CloseIdleConnections()
	out := make([]Probe, len(endpoints))
	slots := make(chan struct{}, max(parallel, 1))
	var wg sync.WaitGroup
	for i, ep := range endpoints {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			out[i] = probeAgent(ctx, client, ep, timeout)
		}()
	}
	wg.Wait()
	return out
}
