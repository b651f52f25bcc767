package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/leaguetui/leaguetui/agents/rpc"
)

// RawOptions configure the raw measure.
type RawOptions struct {
	// Concurrency is the number of exchanges kept in flight, one client
	// goroutine each; the league's is its referees' total match capacity
	// times two (both players are asked at once). 0 means 1.
	Concurrency int
	// Duration is how long to measure; 0 means 3s.
	Duration time.Duration
}

// RawResult is the machine's capacity for league-shaped HTTP exchanges.
type RawResult struct {
	Concurrency int
	ExchangeTally
	RequestBytes  int
	ResponseBytes int
}

// ExchangeTally is what an HTTP measure counts: the exchanges completed
// over Elapsed and the CPU (user + system) both ends of them used, CPUKnown
// false where /proc is missing.
type ExchangeTally struct {
	Elapsed   time.Duration
	Exchanges int64
	CPU       time.Duration
	CPUKnown  bool
}

// PerSecond is exchanges per second.
func (t ExchangeTally) PerSecond() float64 { return Rate(t.Exchanges, t.Elapsed) }

// CPUPerExchange is the CPU of both ends of one exchange, 0 when unknown.
func (t ExchangeTally) CPUPerExchange() time.Duration {
	if !t.CPUKnown || t.Exchanges == 0 {
		return 0
	}
	return t.CPU / time.Duration(t.Exchanges)
}

// Raw measures exchanges per second between a minimal HTTP server and
// client on 127.0.0.1 in this process, with keep-alive connections, each
// exchange a CHOOSE_PARITY_CALL and its response (SampleExchange). The
// server does no JSON work: it reads the body and writes the canned reply,
// so the figure is the ceiling of HTTP on loopback for this traffic, the
// cost every league exchange pays before any league logic.
func Raw(ctx context.Context, opts RawOptions) (RawResult, error) {
	opts = opts.withDefaults()
	request, response, err := SampleExchange()
	if err != nil {
		return RawResult{}, err
	}
	srv, err := startRawServer(response)
	if err != nil {
		return RawResult{}, err
	}
	defer srv.close()
	client := newRawClient(request, opts.Concurrency)
	defer client.close()

	d := driver{servers: []string{srv.url}, exchange: client.exchange}
	err = d.warm(ctx, opts.Concurrency)
	result := RawResult{Concurrency: opts.Concurrency, RequestBytes: len(request), ResponseBytes: len(response)}
	if err == nil {
		cpuBefore, knownBefore := CPUTime(os.Getpid())
		result.Exchanges, result.Elapsed, err = d.measure(ctx, opts.Concurrency, opts.Duration)
		cpuAfter, knownAfter := CPUTime(os.Getpid())
		result.CPU, result.CPUKnown = cpuAfter-cpuBefore, knownBefore && knownAfter
	}
	if err != nil && ctx.Err() == nil {
		err = fmt.Errorf("raw measure: %w", err)
	}
	return result, err
}

func (o RawOptions) withDefaults() RawOptions {
	if o.Concurrency < 1 {
		o.Concurrency = 1
	}
	if o.Duration <= 0 {
		o.Duration = 3 * time.Second
	}
	return o
}

// rawServer answers every POST /mcp with the same bytes.
type rawServer struct {
	url  string
	srv  *http.Server
	done chan error
}

func startRawServer(response []byte) (*rawServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("raw measure: cannot listen on loopback: %w", err)
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(response)
	})
	s := &rawServer{url: "http://" + ln.Addr().String() + "/mcp",
		srv:  rpc.NewHTTPServer(handler, rpc.DefaultReadTimeout, nil),
		done: make(chan error, 1)}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

func (s *rawServer) close() {
	_ = s.srv.Close()
	<-s.done
}

// rawClient posts the request over a pool of keep-alive connections, one
// per concurrent exchange, as an agent's client does.
type rawClient struct {
	request []byte
	http    *http.Client
}

func newRawClient(request []byte, concurrency int) *rawClient {
	transport := &http.Transport{
		Proxy:               nil,
		MaxIdleConns:        concurrency,
		MaxIdleConnsPerHost: concurrency,
		MaxConnsPerHost:     concurrency,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	return &rawClient{request: request, http: &http.Client{Transport: transport}}
}

func (c *rawClient) close() { c.http.CloseIdleConnections() }

// exchange posts the request once to url and reads the whole reply.
func (c *rawClient) exchange(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(c.request))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return nil
}

// driver keeps exchanges in flight, spread over servers, and counts those
// completed: the raw measure's one server, or the floor's server processes.
type driver struct {
	servers  []string
	exchange func(ctx context.Context, url string) error
}

// warm makes, from concurrency goroutines at once, one exchange each with
// every server, so that the connections the measure uses are open before
// its clock starts.
func (d driver) warm(ctx context.Context, concurrency int) error {
	var done sync.WaitGroup
	errs := make(chan error, concurrency)
	for range concurrency {
		done.Go(func() {
			for _, url := range d.servers {
				if err := d.exchange(ctx, url); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	done.Wait()
	close(errs)
	return firstError(ctx, errs)
}

// measure keeps concurrency exchanges in flight for duration and counts
// those completed. The workers start together, each at its own server.
func (d driver) measure(ctx context.Context, concurrency int, duration time.Duration) (int64, time.Duration, error) {
	var done sync.WaitGroup
	start := make(chan struct{})
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var count atomic.Int64
	errs := make(chan error, concurrency)
	for worker := range concurrency {
		done.Go(func() {
			<-start
			n, err := d.loop(runCtx, worker)
			count.Add(n)
			if err != nil {
				errs <- err
				cancel()
			}
		})
	}
	began := time.Now()
	stop := time.AfterFunc(duration, cancel)
	defer stop.Stop()
	close(start)
	done.Wait()
	elapsed := time.Since(began)
	close(errs)
	return count.Load(), elapsed, firstError(ctx, errs)
}

// loop exchanges with one server after another until ctx ends; an
// exchange cut short by the end is not counted and not an error.
func (d driver) loop(ctx context.Context, worker int) (int64, error) {
	var n int64
	for i := worker; ; i++ {
		if err := d.exchange(ctx, d.servers[i%len(d.servers)]); err != nil {
			if ctx.Err() != nil {
				return n, nil
			}
			return n, err
		}
		n++
	}
}

// firstError is the caller's cancellation, or else the first worker
// failure.
func firstError(ctx context.Context, errs <-chan error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return nil
}
