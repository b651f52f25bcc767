package season_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/season"
)

// crowdedSeason is three leagues run with the default league id, a minute
// apart or the same minute, of players whose ratings end close together:
// every game a draw but a few, so the end labels all want the same place.
func crowdedSeason(players int) *season.Season {
	s := &season.Season{Dir: "crowded"}
	start := time.Date(2026, 12, 1, 14, 5, 0, 0, time.UTC)
	for k, at := range []time.Time{start, start.Add(26 * time.Hour), start.Add(26*time.Hour + 10*time.Second)} {
		f := season.LeagueFile{LeagueID: "league_2025_even_odd", GameType: "even_odd", Seed: int64(7 + k), Started: at,
			DataDir: filepath.Join(os.TempDir(), "gone", fmt.Sprint(k))}
		names := make([]string, players)
		for i := range names {
			names[i] = fmt.Sprintf("player-%02d", i+1)
			if i == 0 {
				names[i] = "a-player-with-a-name-far-too-long-for-the-margin"
			}
			f.Table = append(f.Table, engine.SeasonTotal{Name: names[i], Leagues: 1})
		}
		n := 0
		for a := range names {
			for b := a + 1; b < len(names); b++ {
				n++
				r := season.Result{MatchID: fmt.Sprintf("L%dM%d", k, n), Round: 1, PlayerA: names[a], PlayerB: names[b], Status: engine.StatusDraw}
				if (a+b+k)%5 == 0 {
					r.Status, r.Winner = engine.StatusWin, names[a]
				}
				f.Results = append(f.Results, r, season.Result{MatchID: r.MatchID + "r", Round: 2, PlayerA: names[b], PlayerB: names[a],
					Status: engine.StatusDraw})
			}
		}
		s.Leagues = append(s.Leagues, f)
	}
	return s
}

// The leagues are named by id and start, and told apart when those are
// the same; the end labels' boxes, as the page draws them, do not overlap.
func TestSeasonChartLabels(t *testing.T) {
	for _, players := range []int{3, 12, 30} {
		s := crowdedSeason(players)
		labels := s.LeagueLabels()
		want := []string{"league_2025_even_odd · 2026-12-01 14:05", "league_2025_even_odd · 2026-12-02 16:05 · seed 8",
			"league_2025_even_odd · 2026-12-02 16:05 · seed 9"}
		if strings.Join(labels, "|") != strings.Join(want, "|") {
			t.Errorf("league labels %q, want %q", labels, want)
		}
		boxes := s.EndLabels()
		if len(boxes) != players {
			t.Fatalf("%d players: %d end labels", players, len(boxes))
		}
		for a, ba := range boxes {
			if ba.Y < 0 || ba.W <= 0 || ba.X+ba.W > 760+labelSlack {
				t.Errorf("%d players: %s's label %+v is off the chart", players, a, ba)
			}
			for b, bb := range boxes {
				if a < b && ba.Overlaps(bb) {
					t.Errorf("%d players: the end labels of %s %+v and %s %+v overlap", players, a, ba, b, bb)
				}
			}
		}
	}
	// Same id, start and seed: their places tell them apart.
	s := crowdedSeason(3)
	s.Leagues[2].Seed = s.Leagues[1].Seed
	if l := s.LeagueLabels(); l[1] == l[2] || !strings.HasSuffix(l[2], "#3") {
		t.Errorf("leagues alike but for their place: %q", l)
	}
}

// labelSlack is how far past the chart's right edge a label's estimated
// box may reach: the estimate is generous, at 0.62 em a character.
const labelSlack = 10

// TestSeasonChartInChromium writes a crowded season's page and reads it
// at 1280 wide in headless Chromium: the three leagues' labels are
// distinct, no two end labels' boxes overlap as the browser lays them
// out, and the page's bands are light. The screenshot is left in
// $SEASON_SHOT (default: the test's temporary folder).
func TestSeasonChartInChromium(t *testing.T) {
	exe := chromium(t)
	out := t.TempDir()
	if err := crowdedSeason(14).WritePage(out); err != nil {
		t.Fatal(err)
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(1280, 1000))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(out, season.PageFile))); err != nil {
		t.Fatal(err)
	}
	type box struct{ X, Y, W, H float64 }
	type got struct {
		Leagues []string `json:"leagues"`
		Labels  []box    `json:"labels"`
		Names   []string `json:"names"`
		Opacity []string `json:"opacity"`
	}
	g, err := chromedp.Run(ctx, chromedp.Evaluate[got](`({
  leagues: Array.from(document.querySelectorAll("#leagues .league")).map(a => a.textContent),
  labels: Array.from(document.querySelectorAll("#history text.label")).map(t => { const r = t.getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height} }),
  names: Array.from(document.querySelectorAll("#history text.label")).map(t => t.textContent),
  opacity: Array.from(document.querySelectorAll("#history polygon.band")).map(p => getComputedStyle(p).fillOpacity),
})`))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Leagues) != 3 || g.Leagues[0] == g.Leagues[1] || g.Leagues[1] == g.Leagues[2] || g.Leagues[0] == g.Leagues[2] {
		t.Errorf("the leagues are not named apart: %q", g.Leagues)
	}
	if len(g.Labels) != 14 {
		t.Fatalf("%d end labels, want 14", len(g.Labels))
	}
	for i, a := range g.Labels {
		for j := i + 1; j < len(g.Labels); j++ {
			b := g.Labels[j]
			if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
				t.Errorf("the end labels %q %+v and %q %+v overlap in the browser", g.Names[i], a, g.Names[j], b)
			}
		}
	}
	for _, o := range g.Opacity {
		if o != "0.06" {
			t.Errorf("a band's fill-opacity is %s, want 0.06", o)
			break
		}
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := os.Getenv("SEASON_SHOT")
	if path == "" {
		path = filepath.Join(out, "season-chart.png")
	}
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
