package season_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/season"
)

// hostile would run script if the page ever took a name as markup.
const hostile = `<img src=x onerror=document.title='pwned'>`

// chromium is the distribution's headless Chromium; without it the test
// skips, and fails under CI=true.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium-headless-shell", "chromium", "headless_shell", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	leaguetest.SkipWithout(t, "no headless Chromium (apt-get install chromium-headless-shell): the season page's browser test needs it")
	return ""
}

// seen is what the test reads of the season page in the browser.
type seen struct {
	Title   string     `json:"title"`
	Rows    [][]string `json:"rows"`
	Series  []string   `json:"series"`
	Bands   int        `json:"bands"`
	Points  []int      `json:"points"`
	Links   []string   `json:"links"`
	Images  int        `json:"images"`
	Scripts int        `json:"scripts"`
	Joint   string     `json:"joint"`
}

const read = `({
  title: document.title,
  rows: Array.from(document.querySelectorAll("#standings tbody tr")).map(tr => Array.from(tr.cells).map(td => td.textContent)),
  series: Array.from(document.querySelectorAll("#history g.player > title")).map(t => t.textContent),
  bands: Array.from(document.querySelectorAll("#history polygon.band")).filter(p => p.getBBox().height > 0).length,
  points: Array.from(document.querySelectorAll("#history polyline.rating")).map(p => p.points.numberOfItems),
  links: Array.from(document.querySelectorAll("#leagues a")).map(a => a.href),
  images: document.querySelectorAll("img").length,
  scripts: document.querySelectorAll("script").length,
  joint: (document.getElementById("joint") || {textContent: ""}).textContent,
})`

// TestSeasonPageInChromium writes the page of a season of two leagues,
// one player with a hostile name, and reads it in headless Chromium: the
// table is the season's, the chart has a line and a band per player with
// a point per league it was rated after, the league links lead to their
// reports, and the hostile name stays text.
func TestSeasonPageInChromium(t *testing.T) {
	exe := chromium(t)
	seasonDir := filepath.Join(t.TempDir(), "season")
	playLeague(t, seasonDir, 8, "ann", "bob", "eve="+hostile) // a roster name is plain; the season name it maps to need not be
	playLeague(t, seasonDir, 9, "ann", "bob", "cat")
	out := t.TempDir()
	run := leaguetest.RunLeaguetui(t, out, time.Minute, nil, "report", "--season", seasonDir, "--out", out)
	if run.Err != nil {
		t.Fatalf("leaguetui report --season: %v\n%s", run.Err, run.Stderr)
	}
	s, _ := season.Read(seasonDir)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(1200, 1000))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	page := "file://" + filepath.Join(out, season.PageFile)
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitVisible("#history")); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[seen](read))
	if err != nil {
		t.Fatal(err)
	}
	if got.Title == "pwned" || got.Images != 0 || got.Scripts != 0 {
		t.Errorf("the hostile name ran as markup: title %q, %d images, %d scripts", got.Title, got.Images, got.Scripts)
	}
	if line := season.JointLine(s.Joint()); line == "" || got.Joint != "Seat and draws, "+line+"." {
		t.Errorf("the page says %q of the seat and the draws, the season's fit %q", got.Joint, line)
	}
	table := s.Table()
	if len(got.Rows) != len(table) {
		t.Fatalf("the page's table has %d rows, the season %d", len(got.Rows), len(table))
	}
	foundHostile := false
	for i, row := range table {
		if got.Rows[i][1] != row.Name {
			t.Errorf("row %d: %q, want %q", i+1, got.Rows[i][1], row.Name)
		}
		if n := len(got.Rows[i]); n != 15 || got.Rows[i][13] != season.Ranks(row.Ranks) || got.Rows[i][14] != strconv.Itoa(row.Ranks.TieGroup) {
			t.Errorf("row %d: %q, want the rank interval %s and the tie group %d last", i+1, got.Rows[i], season.Ranks(row.Ranks), row.Ranks.TieGroup)
		}
		foundHostile = foundHostile || got.Rows[i][1] == hostile
	}
	if !foundHostile || !slicesContains(got.Series, hostile) {
		t.Errorf("the hostile name is not shown as text: rows %v, series %v", got.Rows, got.Series)
	}
	// A line per player, through a point per league it was rated after,
	// and a band for its interval.
	want := map[string]int{"ann": 2, "bob": 2, hostile: 2, "cat": 1}
	if len(got.Series) != len(want) || got.Bands != len(want) {
		t.Errorf("the chart has %d series and %d bands, want %d each", len(got.Series), got.Bands, len(want))
	}
	for i, name := range got.Series {
		if got.Points[i] != want[name] {
			t.Errorf("%s's line has %d points, want %d", name, got.Points[i], want[name])
		}
	}
	if len(got.Links) != 2 {
		t.Fatalf("links %v", got.Links)
	}
	for _, link := range got.Links {
		path := strings.TrimPrefix(link, "file://")
		if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), "league_2025_even_odd") {
			t.Errorf("link %s does not lead to a league's report: %v", link, err)
		}
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err == nil {
		_ = os.WriteFile(filepath.Join(out, "season.png"), shot, 0o644)
		t.Logf("screenshot: %s", filepath.Join(out, "season.png"))
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
