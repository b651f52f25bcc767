package linkrace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

// hostileServer is a page server of the tests' own, an MCP server whose
// list_pages and tools/list are the SDK's and whose navigate answers are
// written by hand as page does, so they can be as large, slow or false as
// a hostile server's. It counts the pages asked for.
type hostileServer struct {
	URL   string
	loads atomic.Int64
}

// pageAnswer writes the JSON-RPC result of navigate(title) to w, given
// the request's id; the request's context ends when the client gives up.
type pageAnswer func(ctx context.Context, w http.ResponseWriter, id json.RawMessage, title string)

func startHostile(t *testing.T, titles []string, page pageAnswer) *hostileServer {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "hostile-pages"}, nil)
	server.AddTool(&mcp.Tool{Name: "navigate", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, fmt.Errorf("answered by hand")
		})
	mcp.AddTool(server, &mcp.Tool{Name: "list_pages"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, map[string]any, error) {
		return nil, map[string]any{"titles": titles}, nil
	})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	h := &hostileServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var call struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string `json:"name"`
				Arguments struct {
					Page string `json:"page"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &call) == nil && call.Method == "tools/call" && call.Params.Name == "navigate" {
			h.loads.Add(1)
			w.Header().Set("Content-Type", "application/json")
			page(r.Context(), w, call.ID, call.Params.Arguments.Page)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		sdk.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	h.URL = srv.URL + "/mcp"
	return h
}

// writePage writes a navigate result holding the page's links.
func writePage(w io.Writer, id json.RawMessage, title string, linksJSON []byte) {
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"{}"}],"structuredContent":{"title":%q,"links":`, id, title)
	_, _ = w.Write(linksJSON)
	_, _ = io.WriteString(w, `}}}`)
}

// raceAgainst plays one link race between two greedy players, a referee
// reading pages from pagesURL, and returns the match file and the referee.
func raceAgainst(t *testing.T, dir, pagesURL string, game ...string) (raceResult, *process.Child) {
	t.Helper()
	game = append([]string{"--game", "link_race", "--move-timeout", "5s", "--retry-delay", "50ms"}, game...)
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "5"}, game...)...)
	referee := leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", append([]string{"--pages-url", pagesURL}, game...)...)
	for _, name := range []string{"greedy1", "greedy2"} {
		leaguetest.StartPlayer(t, dir, mgr.Endpoint, name, append([]string{"--strategy", "greedy"}, game...)...)
	}
	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.UntilCompleted(t, ctl, 0, leagueTimeout)
	matches := readMatches(t, dir)
	if len(matches) != 1 {
		t.Fatalf("%d match files, want 1", len(matches))
	}
	return matches[0], referee
}

// noRaceDrawn checks a match the page server gave no race to: a draw, both
// players in ERROR, one APP_NAVIGATION_ERROR of the match and of no
// player, and the standings agreeing (a point each, no technical loss).
func noRaceDrawn(t *testing.T, dir string, m raceResult) {
	t.Helper()
	r := m.Result
	if r.Status != string(engine.StatusDraw) || r.Winner != nil || r.StatusA != engine.RaceError || r.StatusB != engine.RaceError {
		t.Errorf("result %+v, want a draw with both players in ERROR", r)
	}
	if len(r.Errors) != 1 || r.Errors[0].ErrorType != engine.ErrorNavigation {
		t.Errorf("errors %+v, want one APP_NAVIGATION_ERROR", r.Errors)
	}
	points := map[string]int{}
	for id, p := range r.Score {
		points[id] += p
	}
	checkStandings(t, dir, points)
}

// referee memory bounds, figures the unbounded code passes many times
// over: it read a 150 MB page whole (2.7 GB per referee) and cached every
// page of 100,000 links it loaded (850 MB in 90 s).
const refereeMemoryBound = 400 << 20

func checkRefereeMemory(t *testing.T, referee *process.Child) {
	t.Helper()
	peak := leaguetest.PeakRSS(t, referee.PID())
	t.Logf("referee peak RSS: %.1f MiB (bound %d MiB)", float64(peak)/(1<<20), refereeMemoryBound>>20)
	if peak > refereeMemoryBound {
		t.Errorf("the referee under attack peaked at %.1f MiB, past the bound of %d MiB", float64(peak)/(1<<20), refereeMemoryBound>>20)
	}
}

// A page server whose every page lists 100,000 links: the race draw loads
// at most --race-draw-loads pages, each page keeps --page-links links
// (the rest told in the move call's links_dropped), the match finishes
// and the referee's memory stays bounded.
func TestPagesOfAHundredThousandLinks(t *testing.T) {
	const links, drawLoads = 100_000, 8
	// Pages "W…" and "B…" list the 100,000 pages "A0"… and pages "A…" the
	// 100,000 pages "B0"…: every page exists, and races are two links long.
	blob := func(prefix string) []byte {
		list := make([]string, links)
		for i := range list {
			list[i] = fmt.Sprint(prefix, i)
		}
		raw, _ := json.Marshal(list)
		return raw
	}
	toA, toB := blob("A"), blob("B")
	starts := make([]string, 50)
	for i := range starts {
		starts[i] = fmt.Sprint("W", i)
	}
	pages := startHostile(t, starts, func(_ context.Context, w http.ResponseWriter, id json.RawMessage, title string) {
		if strings.HasPrefix(title, "A") {
			writePage(w, id, title, toB)
			return
		}
		writePage(w, id, title, toA)
	})
	dir := t.TempDir()
	start := time.Now()
	m, referee := raceAgainst(t, dir, pages.URL, "--race-draw-loads", fmt.Sprint(drawLoads), "--race-steps", "2")
	t.Logf("the match took %v, %d pages loaded", time.Since(start).Round(time.Millisecond), pages.loads.Load())
	if n := pages.loads.Load(); n > drawLoads+2*2 {
		t.Errorf("%d pages loaded, more than the draw's %d and the players' 4 steps", n, drawLoads)
	}
	if m.Result.StartPage == "" {
		t.Fatalf("no race drawn: %+v", m.Result.Errors)
	}
	checkRace(t, m)
	var dropped bool
	for _, e := range m.Transcript {
		req, _ := e.Content["move_request"].(map[string]any)
		state, _ := req["context"].(map[string]any)
		if state == nil {
			continue
		}
		if n, _ := state["links"].([]any); len(n) != 1000 || state["links_dropped"] != float64(links-1000) {
			t.Errorf("a move call shows %d links, %v dropped; want 1000 and %d", len(n), state["links_dropped"], links-1000)
		}
		dropped = true
	}
	if !dropped {
		t.Error("no move call in the transcript")
	}
	checkRefereeMemory(t, referee)
}

// A page server answering 150 MB for every page: each reply is refused at
// --page-reply-bytes (REPLY_TOO_LARGE), no race can be drawn, which is the
// page server's error and neither player's loss, and the referee's memory
// stays bounded.
func TestPagesOfAHundredAndFiftyMegabytes(t *testing.T) {
	const size = 150 << 20
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	pages := startHostile(t, []string{"A", "B", "C"}, func(_ context.Context, w http.ResponseWriter, id json.RawMessage, title string) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, id)
		for written := 0; written < size; written += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client gave up reading: as it should
			}
		}
		_, _ = io.WriteString(w, `"}]}}`)
	})
	dir := t.TempDir()
	m, referee := raceAgainst(t, dir, pages.URL)
	noRaceDrawn(t, dir, m)
	if nav := m.Result.Errors[0].Metadata["nav_error"]; !strings.Contains(fmt.Sprint(nav), "REPLY_TOO_LARGE") {
		t.Errorf("nav_error %v, want REPLY_TOO_LARGE named", nav)
	}
	checkRefereeMemory(t, referee)
}

// A page server that never answers a page: the draw gives up at the first
// page unanswered within a call's limit (20 s), inside the match deadline,
// and the match is the page server's error, not a loss of either player.
func TestSilentPageServer(t *testing.T) {
	pages := startHostile(t, []string{"A", "B", "C"}, func(ctx context.Context, _ http.ResponseWriter, _ json.RawMessage, _ string) {
		select {
		case <-ctx.Done():
		case <-time.After(leagueTimeout):
		}
	})
	dir := t.TempDir()
	start := time.Now()
	m, _ := raceAgainst(t, dir, pages.URL)
	if took := time.Since(start); took > time.Minute {
		t.Errorf("the league took %v with one page unanswered for 20 s", took)
	}
	noRaceDrawn(t, dir, m)
	if nav := fmt.Sprint(m.Result.Errors[0].Metadata["nav_error"]); !strings.Contains(nav, "did not answer") {
		t.Errorf("nav_error %q, want the page server's silence", nav)
	}
}

// A race draw has no clock: a page server answering every page after
// 150 ms, so that the draw's loads take longer than the 20 s a draw once
// had, draws the same race as the same server answering at once. Each
// page links to five others, so the draw uses most of its loads.
func TestSlowPageServerDrawsTheSameRace(t *testing.T) {
	t.Parallel()
	races := make([]string, 2)
	for i, delay := range []time.Duration{0, 150 * time.Millisecond} {
		pages := startHostile(t, []string{"S"}, func(ctx context.Context, w http.ResponseWriter, id json.RawMessage, title string) {
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return
			}
			links := make([]string, 5)
			for k := range links {
				links[k] = fmt.Sprint(title, k)
			}
			raw, _ := json.Marshal(links)
			writePage(w, id, title, raw)
		})
		dir := t.TempDir()
		start := time.Now()
		m, _ := raceAgainst(t, dir, pages.URL)
		t.Logf("pages after %v: %d loaded, the league took %v, raced %s to %s", delay, pages.loads.Load(),
			time.Since(start).Round(time.Millisecond), m.Result.StartPage, m.Result.TargetPage)
		if m.Result.StartPage == "" {
			t.Fatalf("pages after %v: no race drawn: %+v", delay, m.Result.Errors)
		}
		checkRace(t, m)
		if waited := time.Duration(pages.loads.Load()) * delay; delay > 0 && waited <= 20*time.Second {
			t.Errorf("the slow server's pages waited %v in all: not past the 20 s a draw once had", waited)
		}
		races[i] = m.Result.StartPage + " to " + m.Result.TargetPage
	}
	if races[0] != races[1] {
		t.Errorf("a fast page server drew %s, a slow one %s: the draw depends on time", races[0], races[1])
	}
}

// A lying page server: its pages link to pages it does not have. No race
// is run towards one of them; the race drawn goes to a page that exists.
func TestLyingPageServerNeverGivesARaceToNowhere(t *testing.T) {
	exists := map[string][]string{"S": {"M1", "M2"}, "M1": {"Ghost1", "Ghost2", "T"}, "M2": {"Ghost3"}, "T": {}}
	pages := startHostile(t, []string{"S"}, func(_ context.Context, w http.ResponseWriter, id json.RawMessage, title string) {
		links, ok := exists[title]
		if !ok {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"isError":true,"content":[{"type":"text","text":"no page %s"}]}}`, id, title)
			return
		}
		raw, _ := json.Marshal(links)
		writePage(w, id, title, raw)
	})
	dir := t.TempDir()
	m, _ := raceAgainst(t, dir, pages.URL)
	checkRace(t, m)
	if m.Result.StartPage != "S" || m.Result.TargetPage != "T" {
		t.Errorf("race %q -> %q, want S -> T, the only target that exists", m.Result.StartPage, m.Result.TargetPage)
	}
}
