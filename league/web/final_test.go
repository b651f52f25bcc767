package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/web"
)

// finalLook is what the test reads of the page once the league is over.
type finalLook struct {
	Final     string     `json:"final"`
	FinalTag  bool       `json:"final_tag"`
	Stream    int        `json:"stream"` // the EventSource's readyState: 2 is closed
	State     string     `json:"state"`
	Manager   string     `json:"manager"`
	Done      string     `json:"done"`
	Total     string     `json:"total"`
	Running   int        `json:"running"`
	Standings [][]string `json:"standings"`
}

const lookFinal = `({
  final: document.body.dataset.final || "",
  final_tag: !document.getElementById("final").hidden,
  stream: view.stream ? view.stream.readyState : -1,
  state: document.body.dataset.state || "",
  manager: document.getElementById("manager").textContent,
  done: document.getElementById("done").textContent,
  total: document.getElementById("total").textContent,
  running: document.querySelectorAll("#running tbody tr").length,
  standings: Array.from(document.querySelectorAll("#standings tbody tr")).map(tr => Array.from(tr.cells).map(td => td.textContent)),
})`

// TestHeadlessLeagueEndsOnItsFinalStandings (issue 49, item 4): a page
// open on a `leaguetui --no-ui --web` league ends, after the leaguetui
// process has exited, on exactly the final standings of the data folder,
// every match counted, the league marked final and completed, its stream
// closed, and never "manager: not answering": the view sent every stream
// the final standings before the manager stopped. The league waits for an
// open seat, which the test fills only once the page is reading the
// stream, so the page watches the whole league.
func TestHeadlessLeagueEndsOnItsFinalStandings(t *testing.T) {
	exe := chromium(t)
	dir := t.TempDir()
	cmd := exec.Command(leaguetest.Binary(t), "--no-ui", "--free-ports", "--data", dir, "--seed", "11",
		"--players", "7", "--referees", "2", "--open-seats", "1", "--web", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		stderr strings.Builder
	)
	lines := make(chan string, 256)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderrPipe)
		for sc.Scan() {
			mu.Lock()
			stderr.WriteString(sc.Text() + "\n")
			mu.Unlock()
			select {
			case lines <- sc.Text():
			default: // the test reads only the first lines
			}
		}
	}()
	exited := make(chan struct{}) // closed once leaguetui has exited, with waitErr
	var waitErr error
	go func() {
		<-scanned // Wait closes the pipe: read it all first
		waitErr = cmd.Wait()
		close(exited)
	}()
	said := func() string { mu.Lock(); defer mu.Unlock(); return stderr.String() }
	t.Cleanup(func() {
		select {
		case <-exited:
		default: // a test that failed while leaguetui ran
			_ = cmd.Process.Kill()
			<-exited
			leaguetest.KillLeftovers(t, dir)
		}
	})
	deadline := time.After(2 * time.Minute)
	lineWith := func(s string) string {
		t.Helper()
		for {
			select {
			case line := <-lines:
				if i := strings.Index(line, s); i >= 0 {
					return strings.Fields(line[i+len(s):])[0]
				}
			case <-exited:
				t.Fatalf("leaguetui exited (%v) before saying %q:\n%s", waitErr, s, said())
			case <-deadline:
				t.Fatalf("leaguetui did not say %q:\n%s", s, said())
			}
		}
	}
	pageURL := lineWith("web view at ")
	registerAt := strings.TrimSuffix(lineWith("register at "), ";")

	ctx := browser(t, exe)
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL), chromedp.WaitVisible("#standings"),
		chromedp.Poll[chromedp.Void](`document.getElementById("manager").textContent === "manager: up"`,
			chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("open %s and read its stream: %v\n%s", pageURL, err, said())
	}
	leaguetest.StartPlayer(t, t.TempDir(), registerAt, "seat", "--strategy", "random", "--seed", "11")

	select {
	case <-exited:
	case <-deadline:
		t.Fatalf("the league did not complete:\n%s", said())
	}
	if waitErr != nil {
		t.Fatalf("leaguetui --no-ui --web: %v (want exit status 0)\n%s", waitErr, said())
	}
	outputs, _ := filepath.Glob(filepath.Join(dir, "logs", "system", "*.out"))
	leaguetest.CheckNoDataRace(t, outputs...)

	// leaguetui has exited: its manager and its view are gone. The final
	// event was written before; the page takes it as it comes.
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.body.dataset.final === "true"`,
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		seen, _ := chromedp.Run(ctx, chromedp.Evaluate[finalLook](lookFinal))
		t.Fatalf("the page was never told the final standings: %v; it shows %+v\n%s", err, seen, said())
	}
	seen, err := chromedp.Run(ctx, chromedp.Evaluate[finalLook](lookFinal))
	if err != nil {
		t.Fatal(err)
	}
	var want protocol.StandingsFile
	leaguetest.ReadJSON(t, filepath.Join(dir, "leagues", leaguetest.LeagueIn(t, dir), "standings.json"), &want)
	if want.State != "completed" || want.MatchesDone != want.MatchesTotal || want.MatchesTotal != 28 {
		t.Fatalf("the data folder's standings: state %q, %d of %d matches; want completed, 28 of 28", want.State, want.MatchesDone, want.MatchesTotal)
	}
	if seen.State != "completed" || !seen.FinalTag || seen.Stream != 2 {
		t.Errorf("the page shows state %q, final tag %v, stream readyState %d; want completed, the final tag, a closed stream (2)",
			seen.State, seen.FinalTag, seen.Stream)
	}
	if seen.Done != strconv.Itoa(want.MatchesDone) || seen.Total != strconv.Itoa(want.MatchesTotal) {
		t.Errorf("the page shows %s of %s matches; the data folder has %d of %d", seen.Done, seen.Total, want.MatchesDone, want.MatchesTotal)
	}
	if strings.Contains(seen.Manager, "not answering") || !strings.Contains(seen.Manager, "final standings") {
		t.Errorf("the page's manager line says %q; want the final standings, never not answering", seen.Manager)
	}
	if seen.Running != 0 {
		t.Errorf("the page shows %d running matches in a completed league", seen.Running)
	}
	if len(seen.Standings) != len(want.Standings) {
		t.Fatalf("the page shows %d standings rows, the data folder has %d", len(seen.Standings), len(want.Standings))
	}
	for i, r := range want.Standings {
		row := []string{strconv.Itoa(r.Rank), r.PlayerID, r.DisplayName, strconv.Itoa(r.Played), strconv.Itoa(r.Wins),
			strconv.Itoa(r.Draws), strconv.Itoa(r.Losses), strconv.Itoa(r.TechnicalLosses), strconv.Itoa(r.Points)}
		if got := seen.Standings[i][:len(row)]; fmt.Sprint(got) != fmt.Sprint(row) {
			t.Errorf("standings row %d: the page shows %q, the data folder's standings.json %q", i+1, got, row)
		}
	}
	saveScreenshot(t, ctx, "web-view-final.png")
	if !strings.Contains(stdout.String(), "completed") {
		t.Errorf("stdout lacks the completed league's standings:\n%s", stdout.String())
	}
}

// saveScreenshot keeps the page as an artefact (go test -artifacts, or
// $LEAGUETUI_ARTIFACTS).
func saveScreenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100 is a PNG
	if err != nil {
		t.Fatal(err)
	}
	keep := t.ArtifactDir()
	if env := os.Getenv("LEAGUETUI_ARTIFACTS"); env != "" {
		keep = env
	}
	if err := os.MkdirAll(keep, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(keep, name)
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(shot))
}

// browser is a headless Chromium for the test, closed when it ends.
func browser(t *testing.T, exe string) context.Context {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(1400, 1000))...)
	ctx, cancel := chromedp.NewContext(alloc) // no timeout: it would end the browser; each wait is bounded
	t.Cleanup(func() { cancel(); cancelAlloc() })
	return ctx
}

// Finish, against a manager whose league has completed: with no stream
// open it asks the manager nothing; of a league under way it sends
// nothing (ErrNotOver); then it returns once every open stream has
// written the final standings, after the league's events, and each
// stream ends there. A stream opened afterwards gets them at once.
func TestFinishEndsEveryStreamOnTheFinalStandings(t *testing.T) {
	const last = 3
	var state atomic.Value
	state.Store(engine.LeagueRunning)
	var standingsAsked atomic.Int64
	mgr := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/events":
			after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
			page := protocol.FeedPage{LastSeq: max(after, last), State: state.Load().(engine.LeagueState)}
			for seq := after + 1; seq <= last; seq++ {
				kind := engine.EventMatchStep
				if seq == last {
					kind = engine.EventLeagueCompleted
				}
				page.Events = append(page.Events, engine.Event{Seq: seq, Kind: kind, MatchID: "R1M1"})
			}
			if len(page.Events) == 0 {
				select { // a long poll with nothing new
				case <-time.After(20 * time.Millisecond):
				case <-r.Context().Done():
				}
			}
			_ = json.NewEncoder(w).Encode(page)
		case "/standings":
			standingsAsked.Add(1)
			_ = json.NewEncoder(w).Encode(protocol.StandingsFile{LeagueID: "L", Version: last, State: state.Load().(engine.LeagueState),
				MatchesDone: 1, MatchesTotal: 1, Standings: []protocol.StandingRow{{Rank: 1, PlayerID: "P01", Points: 3}, {Rank: 2, PlayerID: "P02"}}})
		default:
			http.NotFound(w, r)
		}
	}))
	defer mgr.Close()
	view := web.New(mgr.URL)
	view.Wait, view.Retry = 50*time.Millisecond, 50*time.Millisecond
	srv := httptest.NewServer(view.Handler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	if err := view.Finish(ctx); err != nil || standingsAsked.Load() != 0 {
		t.Fatalf("Finish with no stream open: %v, the manager's standings asked %d times; want nil, none", err, standingsAsked.Load())
	}
	var streams []*sseReader
	for range 3 {
		s := openStream(t, ctx, srv.URL+"/stream")
		s.until(t, func(ev sse) bool { return ev.id == strconv.Itoa(last) }) // open, and every event written
		streams = append(streams, s)
	}
	if err := view.Finish(ctx); !errors.Is(err, web.ErrNotOver) {
		t.Fatalf("Finish of a league under way: %v, want ErrNotOver", err)
	}
	state.Store(engine.LeagueCompleted)
	if err := view.Finish(ctx); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	streams = append(streams, openStream(t, ctx, srv.URL+"/stream")) // after Finish: events, then the final standings
	for i, s := range streams {
		rest := s.toEnd(t)
		if len(rest) == 0 || rest[len(rest)-1].name != "final" {
			t.Fatalf("stream %d: its last events %+v; want the final standings last, then its end", i, rest)
		}
		if i == len(streams)-1 && (len(rest) < last+1 || rest[last-1].id != strconv.Itoa(last)) {
			t.Errorf("the stream opened after Finish: %+v; want events 1 to %d, then the final standings", rest, last)
		}
		var doc protocol.StandingsFile
		if err := json.Unmarshal([]byte(rest[len(rest)-1].data), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.State != engine.LeagueCompleted || doc.Version != last || len(doc.Standings) != 2 || doc.Standings[0].Points != 3 {
			t.Errorf("stream %d: the final standings %+v, want the manager's", i, doc)
		}
		for _, ev := range rest {
			if ev.name == "manager" {
				t.Errorf("stream %d said the manager's state at the end: %+v", i, rest)
			}
		}
	}
}

// sse is one server-sent event as a reader sees it.
type sse struct{ id, name, data string }

type sseReader struct {
	body io.ReadCloser
	sc   *bufio.Scanner
}

func openStream(t *testing.T, ctx context.Context, url string) *sseReader {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &sseReader{body: resp.Body, sc: bufio.NewScanner(resp.Body)}
}

// next is the next event; false at the stream's end.
func (r *sseReader) next() (sse, bool) {
	var ev sse
	for r.sc.Scan() {
		line := r.sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			ev.id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.data = strings.TrimPrefix(line, "data: ")
		case line == "" && (ev.id != "" || ev.name != "" || ev.data != ""):
			return ev, true
		}
	}
	return ev, false
}

// until reads events until ok takes one (the stream's context bounds it).
func (r *sseReader) until(t *testing.T, ok func(sse) bool) {
	t.Helper()
	for {
		ev, more := r.next()
		if !more {
			t.Fatalf("the stream ended (%v) before the event awaited", r.sc.Err())
		}
		if ok(ev) {
			return
		}
	}
}

// toEnd reads every event left until the server ends the stream.
func (r *sseReader) toEnd(t *testing.T) []sse {
	t.Helper()
	var out []sse
	for {
		ev, more := r.next()
		if !more {
			if err := r.sc.Err(); err != nil {
				t.Fatalf("the stream broke (%v) after %+v; want it ended by the server", err, out)
			}
			return out
		}
		if ev.name != "state" {
			out = append(out, ev)
		}
	}
}
