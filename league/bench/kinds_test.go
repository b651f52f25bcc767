package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

const mod = "github.com/leaguetui/leaguetui/"

// syntheticProfile is a CPU profile with one sample per stack, each of
// its own CPU time; a stack lists frames leaf first, and a frame "a+b" is
// one location where a was inlined into b.
type syntheticProfile struct {
	prof  *profile.Profile
	funcs map[string]*profile.Function
}

func newSyntheticProfile() *syntheticProfile {
	return &syntheticProfile{funcs: map[string]*profile.Function{}, prof: &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
	}}
}

func (s *syntheticProfile) function(name string) *profile.Function {
	if f, ok := s.funcs[name]; ok {
		return f
	}
	f := &profile.Function{ID: uint64(len(s.funcs) + 1), Name: name, SystemName: name}
	s.funcs[name] = f
	s.prof.Function = append(s.prof.Function, f)
	return f
}

// sample adds a sample of cpu on the stack of locations, each location a
// list of functions inlined into the last.
func (s *syntheticProfile) sample(cpu time.Duration, stack ...[]string) {
	var locs []*profile.Location
	for _, inlined := range stack {
		loc := &profile.Location{ID: uint64(len(s.prof.Location) + 1)}
		for _, fn := range inlined {
			loc.Line = append(loc.Line, profile.Line{Function: s.function(fn)})
		}
		s.prof.Location = append(s.prof.Location, loc)
		locs = append(locs, loc)
	}
	s.prof.Sample = append(s.prof.Sample, &profile.Sample{Location: locs, Value: []int64{1, int64(cpu)}})
}

func frames(names ...string) [][]string {
	stack := make([][]string, len(names))
	for i, n := range names {
		stack[i] = []string{n}
	}
	return stack
}

func kindIndex(t *testing.T, name string) int {
	t.Helper()
	for i, k := range WorkKinds() {
		if k.Name == name {
			return i
		}
	}
	t.Fatalf("no kind %q", name)
	return -1
}

// TestClassifyProfile: each sample of a profile with known frames counts
// once, under the first kind of WorkKinds that a frame of its stack shows;
// and the profile is written and parsed back first, as the bench reads
// the agents' files.
func TestClassifyProfile(t *testing.T) {
	const (
		json, journal, files, http = "JSON: encoding and decoding", "journal: appends and fsyncs",
			"data files: match files, history.json (create, write, fsync)", "HTTP: net/http server and client, sockets, syscalls"
		gc, sched, routing = "garbage collection", "goroutines and scheduling: switches, channels, locks", "routing: method to handler, dialects, MCP"
	)
	serving := []string{"net/http.HandlerFunc.ServeHTTP", "net/http.serverHandler.ServeHTTP", "net/http.(*conn).serve", "runtime.goexit"}
	cases := []struct {
		kind  string
		cpu   time.Duration
		stack [][]string
	}{
		// A handler's encoding under net/http's dispatch is JSON.
		{json, 10 * time.Millisecond, frames(append([]string{"encoding/json.Marshal", mod + "agents/protocol.EncodeResult",
			mod + "agents/rpc.(*Server).respond"}, serving...)...)},
		// A handler's own code: net/http's dispatch does not claim it.
		{OtherWork, 20 * time.Millisecond, frames(append([]string{mod + "agents/player.(*Player).handleMoveCall",
			mod + "agents/rpc.(*Server).call"}, serving...)...)},
		// ...but a sample in the dispatching frame itself is HTTP.
		{http, 30 * time.Millisecond, frames("net/http.(*conn).serve", "runtime.goexit")},
		// The journal's fsync is the journal's, before the data files' file operations.
		{journal, 40 * time.Millisecond, frames("syscall.Fsync", "os.(*File).Sync", mod+"agents/store.(*Journal).write", "runtime.goexit")},
		// A match file's encoding is the data files': purpose before means.
		{files, 50 * time.Millisecond, frames("encoding/json.Marshal", mod+"agents/protocol.EncodeMatchFile",
			mod+"agents/store.WriteFileAtomic", "runtime.goexit")},
		// A GC assist under JSON is JSON; under code no kind claims, GC (before the allocation that triggered it).
		{json, 60 * time.Millisecond, frames("runtime.gcAssistAlloc", "runtime.mallocgc", "encoding/json.(*decodeState).object")},
		{gc, 70 * time.Millisecond, frames("runtime.gcAssistAlloc", "runtime.mallocgc", mod+"agents/manager.(*feedWindow).push")},
		// Inlined frames count like any other: the decoder inlined into the handler.
		{json, 80 * time.Millisecond, [][]string{{mod + "agents/protocol.Decode", mod + "agents/player.(*Player).handleInvitation"}, {"runtime.goexit"}}},
		// The circuit breaker's Execute runs the request: the request is HTTP.
		{http, 90 * time.Millisecond, frames("net/http.(*Transport).RoundTrip", mod+"agents/rpc.(*Poster).Post",
			"github.com/sony/gobreaker/v2.(*CircuitBreaker[go.shape.[]uint8]).Execute", mod+"agents/rpc.(*Client).guarded")},
		// ...and its own steps are the breaker's.
		{"circuit breakers", 95 * time.Millisecond, frames("github.com/sony/gobreaker/v2.(*CircuitBreaker[go.shape.[]uint8]).beforeRequest",
			"github.com/sony/gobreaker/v2.(*CircuitBreaker[go.shape.[]uint8]).Execute", mod+"agents/rpc.(*Client).guarded")},
		// The scheduler's own stack.
		{sched, 100 * time.Millisecond, frames("runtime.futex", "runtime.findRunnable", "runtime.schedule", "runtime.park_m", "runtime.mcall")},
		{routing, 110 * time.Millisecond, frames("runtime.mapaccess1_faststr", mod+"agents/rpc.(*Server).handler", mod+"agents/rpc.(*Server).respond")},
	}
	synthetic := newSyntheticProfile()
	want := make([]time.Duration, len(WorkKinds()))
	for _, c := range cases {
		synthetic.sample(c.cpu, c.stack...)
		want[kindIndex(t, c.kind)] += c.cpu
	}
	got := classifyFile(t, synthetic.prof)
	for k := range WorkKinds() {
		if got[k] != want[k] {
			t.Errorf("%s: %v, want %v", WorkKinds()[k].Name, got[k], want[k])
		}
	}
}

// classifyFile writes p to a file and classifies it as the bench reads
// the agents' profiles.
func classifyFile(t *testing.T, p *profile.Profile) []time.Duration {
	t.Helper()
	if err := p.CheckValid(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "player-1.pprof")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	byKind, err := readProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	return byKind
}

// TestClassifyProfileNeedsCPU: a profile without CPU time (a heap
// profile) is refused rather than read as zero.
func TestClassifyProfileNeedsCPU(t *testing.T) {
	heap := &profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}}}
	if _, err := ClassifyProfile(heap); err == nil {
		t.Error("a heap profile was classified as CPU")
	}
}

// TestKindsEndWithOther: the list ends with the kind that takes what no
// pattern claims, and every other kind has a pattern.
func TestKindsEndWithOther(t *testing.T) {
	last := WorkKinds()[len(WorkKinds())-1]
	if last.Name != OtherWork || last.Frames != nil {
		t.Errorf("last kind %q, want %q without a pattern", last.Name, OtherWork)
	}
	for _, k := range WorkKinds()[:len(WorkKinds())-1] {
		if k.Frames == nil {
			t.Errorf("%q has no pattern", k.Name)
		}
	}
}
