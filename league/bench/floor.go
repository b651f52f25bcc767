package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/league/process"
)

// The floor measure: what one league exchange costs when HTTP between two
// separate processes is all there is to it. Server processes serve POST
// /mcp with an agent's own HTTP server (rpc.Server, its timeouts and its
// routes) answering a canned CHOOSE_PARITY_RESPONSE; client processes post
// a CHOOSE_PARITY_CALL the way an agent's client does (rpc.Poster),
// with an agent's headers and a deadline per exchange, and read the whole
// reply. No JSON is encoded or decoded, nothing is logged or written: the
// CPU every process uses per exchange is the floor a league of separate
// processes, one HTTP exchange per league.v2 message, cannot go under.
//
// Both kinds are this binary, started by the bench as hidden subcommands
// of `leaguetui bench` (FloorServerCommand, FloorClientCommand), each on
// one P like a player or a referee.

// The hidden subcommands of `leaguetui bench` that run the floor measure's
// processes.
const (
	FloorServerCommand = "floor-server"
	FloorClientCommand = "floor-client"
)

// IsFloorPeer reports a hidden subcommand of the floor measure.
func IsFloorPeer(command string) bool {
	return command == FloorServerCommand || command == FloorClientCommand
}

// floorExchangeTimeout is each floor exchange's deadline: every attempt an
// agent makes has one (rpc.Client), and it costs a timer.
const floorExchangeTimeout = 10 * time.Second

// FloorOptions configure the floor measure.
type FloorOptions struct {
	Executable string // this program, started as the measure's processes
	Dir        string // where their stderr goes, a file each; made if missing
	// Servers and Clients are how many processes of each kind to start;
	// InFlight the exchanges kept in flight, spread over the clients.
	Servers, Clients, InFlight int
	Duration                   time.Duration // how long to measure; 0 means 3s
	// CPUProfileDir, when set, is where every process of the measure
	// writes a CPU profile of the measure, as floor-server-<pid>.pprof
	// and floor-client-<pid>.pprof.
	CPUProfileDir string
	// When names the moment of the measure in a run ("before the
	// league"), for its result and PoolFloors.
	When string
}

func (o FloorOptions) withDefaults() FloorOptions {
	o.Servers = max(o.Servers, 1)
	o.InFlight = max(o.InFlight, 1)
	o.Clients = min(max(o.Clients, 1), o.InFlight)
	if o.Duration <= 0 {
		o.Duration = 3 * time.Second
	}
	return o
}

// FloorResult is what the floor measure counted: the exchanges from the
// clients' start to the last one's end, and the CPU every server and
// client process used over them.
type FloorResult struct {
	Servers, Clients, InFlight int
	When                       string // FloorOptions.When
	ExchangeTally
	// Kinds is the CPU the measure's profiles hold by kind of work (an
	// index in WorkKinds), from Profiles profiles; nil unless
	// FloorOptions.CPUProfileDir asked for them.
	Kinds    []time.Duration
	Profiles int
	// Measures, in a floor pooled from several (PoolFloors), is each
	// one's tally, in the order they were taken; nil in a single one.
	Measures []FloorMeasure
}

// FloorMeasure is one measure's tally in a pooled floor, and when it was
// taken ("before the league").
type FloorMeasure struct {
	When string
	ExchangeTally
}

// PoolFloors is the floor of measures of the same shape taken at
// different moments: their exchanges, time, CPU and profiles added up, so
// that its CPU per exchange is theirs together, with each one's tally
// kept in Measures under its When. On a shared machine one
// measure's CPU per exchange may differ from another's of the same run by
// a fifth or more; pooled, the floor moves less, and the two readings show
// how much it moved. The CPU is unknown if any measure's is.
func PoolFloors(measures ...FloorResult) FloorResult {
	if len(measures) == 0 {
		return FloorResult{}
	}
	pooled := FloorResult{Servers: measures[0].Servers, Clients: measures[0].Clients, InFlight: measures[0].InFlight}
	pooled.CPUKnown = true
	for _, m := range measures {
		pooled.Elapsed += m.Elapsed
		pooled.Exchanges += m.Exchanges
		pooled.CPU += m.CPU
		pooled.CPUKnown = pooled.CPUKnown && m.CPUKnown
		pooled.Profiles += m.Profiles
		if m.Kinds != nil {
			pooled.Kinds = addKinds(pooled.Kinds, m.Kinds)
		}
		pooled.Measures = append(pooled.Measures, FloorMeasure{When: m.When, ExchangeTally: m.ExchangeTally})
	}
	return pooled
}

// addKinds adds CPU by kind of work to sum, made as long as kinds if nil.
func addKinds(sum, kinds []time.Duration) []time.Duration {
	if sum == nil {
		sum = make([]time.Duration, len(kinds))
	}
	for i, d := range kinds {
		sum[i] += d
	}
	return sum
}

// Floor starts opts.Servers server processes and opts.Clients client
// processes, lets the clients exchange with every server for
// opts.Duration, and counts the exchanges and the CPU of all of them, and
// with opts.CPUProfileDir the CPU their profiles hold by kind of work.
// Every process it started is stopped before it returns.
func Floor(ctx context.Context, opts FloorOptions) (FloorResult, error) {
	result, profiles, err := runFloor(ctx, opts)
	if err == nil && profiles != nil { // the processes have exited: their profiles are whole
		result.Kinds, result.Profiles, err = profiles.byKind()
	}
	return result, err
}

// runFloor is Floor but for reading the profiles, which it has the
// processes write when opts.CPUProfileDir asks.
func runFloor(ctx context.Context, opts FloorOptions) (result FloorResult, _ *cpuProfiles, err error) {
	opts = opts.withDefaults()
	result = FloorResult{Servers: opts.Servers, Clients: opts.Clients, InFlight: opts.InFlight, When: opts.When}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return result, nil, fmt.Errorf("floor measure: %w", err)
	}
	var servers, clients []*process.Child
	defer func() { stopChildren(append(clients, servers...)) }()
	servers, err = startChildren(ctx, opts.Executable, opts.Servers, func(i int) process.Spec {
		return floorSpec(opts, FloorServerCommand, i)
	})
	if err != nil {
		return result, nil, err
	}
	urls := endpointsOf(servers)
	clients, err = startChildren(ctx, opts.Executable, opts.Clients, func(i int) process.Spec {
		spec := floorSpec(opts, FloorClientCommand, i)
		// Each client's workers start at other servers than the others'.
		first := i * opts.InFlight / opts.Clients % len(urls)
		spec.Args = append(spec.Args, "--in-flight", strconv.Itoa(share(opts.InFlight, opts.Clients, i)),
			"--duration", opts.Duration.String())
		spec.Args = append(append(spec.Args, urls[first:]...), urls[:first]...)
		return spec
	})
	if err != nil {
		return result, nil, err
	}
	all := append(append([]*process.Child(nil), servers...), clients...)
	var profiles *cpuProfiles
	if opts.CPUProfileDir != "" {
		profiles = &cpuProfiles{roles: map[string]string{}}
		for i, c := range all {
			role := FloorServerCommand
			if i >= len(servers) {
				role = FloorClientCommand
			}
			profiles.agents = append(profiles.agents, c.PID())
			profiles.roles[filepath.Join(opts.CPUProfileDir, fmt.Sprintf("%s-%d.pprof", role, c.PID()))] = role
		}
		if err := profiles.signal(node.CPUProfileStart); err != nil {
			return result, nil, err
		}
	}
	before, knownBefore := sumCPU(all)
	began := time.Now()
	result.Exchanges, err = runClients(ctx, clients, opts.Duration)
	result.Elapsed = time.Since(began)
	after, knownAfter := sumCPU(all)
	profiles.close() // written after the CPU is read: writing is not the measure's
	result.CPU, result.CPUKnown = after-before, knownBefore && knownAfter
	return result, profiles, err
}

// share is client i's part of total in-flight exchanges over n clients.
func share(total, n, i int) int {
	part := total / n
	if i < total%n {
		part++
	}
	return part
}

func floorSpec(opts FloorOptions, command string, i int) process.Spec {
	name := fmt.Sprintf("%s-%d", command, i+1)
	spec := process.Spec{Name: "floor measure's " + name, Args: []string{"bench", command},
		OutputPath: filepath.Join(opts.Dir, name+".log")}
	if opts.CPUProfileDir != "" {
		spec.Env = profileEnv(opts.CPUProfileDir)
	}
	return spec
}

// childrenAtOnce bounds the processes starting at once.
const childrenAtOnce = 8

// startChildren starts n processes, a few at a time, each ready (listening)
// before it counts; on an error those started are returned with it.
func startChildren(ctx context.Context, exe string, n int, spec func(i int) process.Spec) ([]*process.Child, error) {
	children := make([]*process.Child, n)
	errs := make([]error, n)
	slots := make(chan struct{}, childrenAtOnce)
	var starting sync.WaitGroup
	for i := range n {
		slots <- struct{}{}
		starting.Go(func() {
			defer func() { <-slots }()
			children[i], errs[i] = process.Start(ctx, exe, spec(i), time.Minute)
		})
	}
	starting.Wait()
	var started []*process.Child
	for _, c := range children {
		if c != nil {
			started = append(started, c)
		}
	}
	return started, errors.Join(errs...)
}

func stopChildren(children []*process.Child) {
	var stopping sync.WaitGroup
	for _, c := range children {
		stopping.Go(func() { _ = c.Stop(10 * time.Second) })
	}
	stopping.Wait()
}

// floorRun is a client's answer to POST /run.
type floorRun struct {
	Exchanges int64   `json:"exchanges"`
	Seconds   float64 `json:"seconds"`
}

// runClients has every client measure at once and sums their exchanges.
func runClients(ctx context.Context, clients []*process.Child, duration time.Duration) (int64, error) {
	control := &http.Client{Timeout: duration + time.Minute}
	defer control.CloseIdleConnections()
	counts := make([]int64, len(clients))
	errs := make([]error, len(clients))
	var running sync.WaitGroup
	for i, c := range clients {
		running.Go(func() { counts[i], errs[i] = runClient(ctx, control, c.Endpoint) })
	}
	running.Wait()
	var total int64
	for _, n := range counts {
		total += n
	}
	return total, errors.Join(errs...)
}

func runClient(ctx context.Context, client *http.Client, url string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("floor measure: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, fmt.Errorf("floor measure: %w", err)
	}
	var run floorRun
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("floor measure: a client failed: %s", bytes.TrimSpace(body))
	}
	if err := json.Unmarshal(body, &run); err != nil {
		return 0, fmt.Errorf("floor measure: a client's count: %w", err)
	}
	return run.Exchanges, nil
}

// NewFloorPeer is the process a hidden floor subcommand runs: args are the
// command (FloorServerCommand or FloorClientCommand) and its flags.
// Either prints node.ReadyListening and its URL on stdout once it is
// ready: a server's /mcp, or the URL a client is told to measure at.
func NewFloorPeer(args []string, stdout io.Writer) (node.Agent, error) {
	if len(args) == 0 || !IsFloorPeer(args[0]) {
		return nil, fmt.Errorf("not a floor measure command: %v", args)
	}
	if args[0] == FloorServerCommand {
		if len(args) > 1 {
			return nil, fmt.Errorf("%s takes no arguments", FloorServerCommand)
		}
		return &floorServer{stdout: stdout}, nil
	}
	fs := flag.NewFlagSet(FloorClientCommand, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	inFlight := fs.Int("in-flight", 1, "exchanges in flight")
	duration := fs.Duration("duration", 3*time.Second, "how long a run measures")
	if err := fs.Parse(args[1:]); err != nil {
		return nil, fmt.Errorf("%s: %w", FloorClientCommand, err)
	}
	if fs.NArg() == 0 || *inFlight < 1 || *duration <= 0 {
		return nil, fmt.Errorf("%s needs --in-flight >= 1, --duration > 0 and the servers' URLs", FloorClientCommand)
	}
	return &floorClient{stdout: stdout, servers: fs.Args(), inFlight: *inFlight, duration: *duration}, nil
}

// floorServer answers every POST /mcp with a canned reply, through an
// agent's own HTTP server.
type floorServer struct {
	stdout    io.Writer
	listening *rpc.Listening
}

func (s *floorServer) Start(context.Context) error {
	_, response, err := SampleExchange()
	if err != nil {
		return err
	}
	srv := rpc.NewServer(slog.New(slog.DiscardHandler), func() string { return "floor" })
	// More specific than the server's own /mcp route, so it takes every
	// POST: the same server, mux and timeouts, none of the JSON-RPC.
	srv.HandleHTTP("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return
		}
		rpc.WriteEncoded(w, http.StatusOK, response)
	})
	if s.listening, err = srv.Listen("127.0.0.1", 0); err != nil {
		return err
	}
	fmt.Fprintln(s.stdout, node.ReadyListening+s.listening.URL())
	return nil
}

func (s *floorServer) Shutdown(ctx context.Context) error {
	if s.listening == nil {
		return nil
	}
	return s.listening.Shutdown(ctx)
}

// floorClient opens its connections to every server, then measures once
// for each POST /run it is sent.
type floorClient struct {
	stdout   io.Writer
	servers  []string
	inFlight int
	duration time.Duration

	request []byte
	poster  *rpc.Poster
	control *http.Server
	done    chan error
	running sync.Mutex // one run at a time
}

func (c *floorClient) Start(ctx context.Context) error {
	request, _, err := SampleExchange()
	if err != nil {
		return err
	}
	c.request = request
	// The pool an agent's client keeps: with net/http's default of two
	// idle connections a peer, the connections warm opens beyond two
	// would be closed and opened again in the measure, a cost the
	// league's clients do not have.
	c.poster = rpc.NewPoster(rpc.DefaultMaxConnsPerHost)
	if err := c.driver().warm(ctx, c.inFlight); err != nil {
		return fmt.Errorf("opening connections to the floor servers: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /run", c.serveRun)
	c.control = rpc.NewHTTPServer(mux, rpc.DefaultReadTimeout, nil) // no write deadline: a run answers when it ends
	c.done = make(chan error, 1)
	go func() { c.done <- c.control.Serve(ln) }()
	fmt.Fprintln(c.stdout, node.ReadyListening+"http://"+ln.Addr().String()+"/run")
	return nil
}

func (c *floorClient) Shutdown(ctx context.Context) error {
	if c.poster != nil {
		c.poster.CloseIdleConnections()
	}
	if c.control == nil {
		return nil
	}
	err := c.control.Shutdown(ctx)
	<-c.done
	return err
}

func (c *floorClient) driver() driver {
	return driver{servers: c.servers, exchange: c.exchange}
}

func (c *floorClient) serveRun(w http.ResponseWriter, r *http.Request) {
	c.running.Lock()
	defer c.running.Unlock()
	n, elapsed, err := c.driver().measure(r.Context(), c.inFlight, c.duration)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	rpc.WriteJSON(w, http.StatusOK, floorRun{Exchanges: n, Seconds: elapsed.Seconds()})
}

// exchange is one call as an agent's client makes it (rpc.Client's
// attempt): its deadline, its headers, the whole reply read.
func (c *floorClient) exchange(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, floorExchangeTimeout)
	defer cancel()
	status, _, err := c.poster.Post(ctx, url, c.request)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("%s: HTTP %d", url, status)
	}
	return nil
}
