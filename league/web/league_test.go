package web_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const (
	adminToken = "adm-web-test-0123456789abcdef"
	// hostile would run script if the page ever took a string as markup.
	hostile = `<img src=x onerror=document.title='pwned'>`
)

// chromium is the distribution's headless Chromium (.ci/run installs it);
// without it the test skips, and fails under CI=true.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium-headless-shell", "chromium", "headless_shell", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	leaguetest.SkipWithout(t, "no headless Chromium (apt-get install chromium-headless-shell): the web view's browser test needs it")
	return ""
}

// page is what the test reads of the page at each look.
type page struct {
	State     string     `json:"state"`
	Running   int        `json:"running"`
	Version   string     `json:"version"`
	Standings [][]string `json:"standings"`
	Images    int        `json:"images"`
	Title     string     `json:"title"`
	Flow      int        `json:"flow"`
	Pairs     []string   `json:"pairs"` // the running matches' players
	League    string     `json:"league"`
	Game      string     `json:"game"`
}

const look = `({
  state: document.body.dataset.state || "",
  running: document.querySelectorAll("#running tbody tr").length,
  version: document.body.dataset.standingsVersion || "",
  standings: Array.from(document.querySelectorAll("#standings tbody tr")).map(tr => Array.from(tr.cells).map(td => td.textContent)),
  images: document.querySelectorAll("img").length,
  title: document.title,
  flow: document.querySelectorAll("#flow li").length,
  pairs: Array.from(document.querySelectorAll("#running tbody tr")).map(tr => tr.cells[1].textContent),
  league: document.getElementById("league").textContent,
  game: document.getElementById("game").textContent,
})`

// A real league of real processes watched in a real browser through
// `leaguetui web --attach`: the page showed matches while they ran, and
// when the league completes its standings are the manager's /standings;
// a hostile display name stays text. The screenshot is kept as an
// artefact (go test -artifacts, or $LEAGUETUI_ARTIFACTS).
func TestWebViewInChromium(t *testing.T) {
	exe := chromium(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "test-output")
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "4")
	leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01")
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "random", "--strategy", "random")
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "pattern", "--strategy", "pattern")
	// Slow players, so that matches run long enough to be seen running.
	leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, "slow", "slow", "--delay", "400ms")
	leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, hostile, "slow", "--delay", "400ms")
	view := leaguetest.Start(t, "web", out, false, nil, "web", "--attach", mgr.Endpoint, "--addr", "127.0.0.1:0")

	alloc, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(1400, 1000))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc) // no timeout: it would end the browser; the loop below is bounded
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(view.Endpoint), chromedp.WaitVisible("#standings")); err != nil {
		t.Fatalf("open %s: %v", view.Endpoint, err)
	}

	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var seen page
	sawRunning, sawFlow, sawPlayers := 0, 0, false
	want := ""
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var err error
		if seen, err = chromedp.Run(ctx, chromedp.Evaluate[page](look)); err != nil {
			t.Fatal(err)
		}
		sawRunning, sawFlow = max(sawRunning, seen.Running), max(sawFlow, seen.Flow)
		for _, pair := range seen.Pairs {
			sawPlayers = sawPlayers || strings.Contains(pair, " vs ")
		}
		if seen.State == "completed" && want == "" {
			doc, err := ctl.Standings(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			want = strconv.FormatInt(doc.Version, 10)
		}
		if want != "" && seen.Version == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not reach the completed league's standings (version %q): %+v", want, seen)
		}
		time.Sleep(100 * time.Millisecond) // the browser's own pace: polling the page's state
	}
	if sawRunning == 0 || sawFlow == 0 || !sawPlayers {
		t.Errorf("the page never showed a running match (%d), a match's flow (%d) or a running match's players (%v)",
			sawRunning, sawFlow, sawPlayers)
	}
	doc, err := ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if seen.League != doc.LeagueID || seen.Game != doc.GameType || seen.Game != "even_odd" {
		t.Errorf("the page's header says league %q, game %q; /standings says %q, %q", seen.League, seen.Game, doc.LeagueID, doc.GameType)
	}
	if len(seen.Standings) != len(doc.Standings) {
		t.Fatalf("the page shows %d standings rows, /standings has %d", len(seen.Standings), len(doc.Standings))
	}
	for i, r := range doc.Standings {
		want := []string{strconv.Itoa(r.Rank), r.PlayerID, r.DisplayName, strconv.Itoa(r.Played), strconv.Itoa(r.Wins),
			strconv.Itoa(r.Draws), strconv.Itoa(r.Losses), strconv.Itoa(r.TechnicalLosses), strconv.Itoa(r.Points)}
		got := seen.Standings[i]
		if fmt.Sprint(got[:len(want)]) != fmt.Sprint(want) {
			t.Errorf("standings row %d: the page shows %q, /standings says %q", i+1, got[:len(want)], want)
		}
	}
	if seen.Images != 0 || seen.Title == "pwned" {
		t.Errorf("a display name became markup: %d images, title %q", seen.Images, seen.Title)
	}
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
	path := filepath.Join(keep, "web-view-completed.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(shot))
}
