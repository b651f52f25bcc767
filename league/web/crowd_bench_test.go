package web_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/bench"
	"github.com/leaguetui/leaguetui/league/control"
)

// spectators is how many streams BenchmarkThousandSpectators opens.
const spectators = 1000

// BenchmarkThousandSpectators plays the same league of real processes
// (seed 6, eight players, two referees, 280 matches) twice, each watched by a
// `leaguetui web --attach` process: once with no spectator, once with a
// thousand streams open on the view from before the start to the end. It
// reports both league times (start to league_completed), their ratio and
// the view's peak resident memory; every spectator must have been let in
// and have seen the league complete.
//
//	go test -run '^$' -bench ThousandSpectators -benchtime 1x ./league/web
func BenchmarkThousandSpectators(b *testing.B) {
	for range b.N {
		alone, _ := leagueWatched(b, 0)
		crowded, rss := leagueWatched(b, spectators)
		ratio := crowded.Seconds() / alone.Seconds()
		b.ReportMetric(alone.Seconds(), "s-league-alone")
		b.ReportMetric(crowded.Seconds(), "s-league-watched")
		b.ReportMetric(ratio, "time-ratio")
		b.ReportMetric(float64(rss)/(1<<20), "MiB-view-peak-rss")
		b.Logf("league alone %v, watched by %d streams %v (×%.2f); the view's peak RSS %.1f MiB",
			alone.Round(time.Millisecond), spectators, crowded.Round(time.Millisecond), ratio, float64(rss)/(1<<20))
	}
}

// leagueWatched plays the league with watchers streams open on its web
// view and returns the league's time and the view's peak RSS.
func leagueWatched(b *testing.B, watchers int) (time.Duration, int64) {
	b.Helper()
	dir := b.TempDir()
	mgr := leaguetest.StartManager(b, dir, adminToken, "--seed", "6", "--games-per-pair", "10")
	leaguetest.StartReferee(b, dir, mgr.Endpoint, "REF01")
	leaguetest.StartReferee(b, dir, mgr.Endpoint, "REF02")
	for i, strategy := range []string{"random", "pattern", "counter", "random", "pattern", "counter", "random", "pattern"} {
		leaguetest.StartPlayer(b, dir, mgr.Endpoint, fmt.Sprint(strategy, i), "--strategy", strategy)
	}
	base := strings.TrimSuffix(mgr.Endpoint, "/mcp")
	view := leaguetest.Start(b, "web", dir, false, nil, "web", "--attach", base, "--addr", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var admitted, completed, read atomic.Int64
	in := make(chan bool, watchers)
	transport := &http.Transport{MaxConnsPerHost: 0, DisableCompression: true}
	defer transport.CloseIdleConnections()
	for range watchers {
		wg.Go(func() { watch(ctx, transport, view.Endpoint+"stream", in, &completed, &read) })
	}
	for range watchers {
		if <-in {
			admitted.Add(1)
		}
	}
	if n := admitted.Load(); n != int64(watchers) {
		b.Fatalf("%d of %d spectators let in", n, watchers)
	}
	ctl := control.New(base, adminToken)
	readersBefore, _ := bench.CPUTime(os.Getpid())
	start := time.Now()
	if err := ctl.Start(ctx); err != nil {
		b.Fatal(err)
	}
	leaguetest.UntilCompleted(b, ctl, 0, 3*time.Minute)
	took := time.Since(start)
	for deadline := time.Now().Add(time.Minute); completed.Load() < int64(watchers) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // polling the spectators' count, bounded
	}
	if n := completed.Load(); n != int64(watchers) {
		b.Errorf("%d of %d spectators saw the league complete", n, watchers)
	}
	rss := leaguetest.PeakRSS(b, view.PID())
	viewCPU, _ := bench.CPUTime(view.PID())
	managerCPU, _ := bench.CPUTime(mgr.PID())
	readersAfter, _ := bench.CPUTime(os.Getpid())
	b.Logf("%d streams: the view used %v of CPU, the manager %v, this process (the spectators) %v; each stream read %d KiB",
		watchers, viewCPU, managerCPU, readersAfter-readersBefore, read.Load()/int64(max(watchers, 1))>>10)
	cancel()
	wg.Wait()
	return took, rss
}

// watch reads one stream until it says the league completed, telling in
// whether it was let in.
func watch(ctx context.Context, transport *http.Transport, url string, in chan<- bool, completed, read *atomic.Int64) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := (&http.Client{Transport: transport}).Do(req)
	if err != nil {
		in <- false
		return
	}
	defer resp.Body.Close()
	in <- resp.StatusCode == http.StatusOK
	// Read in large chunks and look only for the end: a spectator's cost
	// is its browser's, on another machine, not this benchmark's.
	mark := []byte(`"state":"completed"`)
	buf := make([]byte, 64<<10)
	kept := 0 // bytes of the last chunk's tail kept in front, in case the mark straddles two reads
	for {
		n, err := resp.Body.Read(buf[kept:])
		read.Add(int64(n))
		if bytes.Contains(buf[:kept+n], mark) {
			completed.Add(1)
			return
		}
		if err != nil {
			return
		}
		kept = copy(buf, buf[max(0, kept+n-len(mark)):kept+n])
	}
}
