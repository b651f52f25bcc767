package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// countingPages counts the pages loaded; every page links to width
// others, and pages named in missing do not exist (their links lead
// nowhere: a lying server lists them).
type countingPages struct {
	width       int
	missing     func(title string) bool
	loads       int
	silentAfter int // after this many loads the server answers no more; 0: never
}

func (c *countingPages) Titles() ([]string, error) { return []string{"Start"}, nil }

func (c *countingPages) Page(title string) (Page, error) {
	c.loads++
	if c.silentAfter > 0 && c.loads > c.silentAfter {
		return Page{}, fmt.Errorf("%w: page %s", ErrPagesSilent, title)
	}
	if c.missing != nil && c.missing(title) {
		return Page{}, errors.New("no page " + title)
	}
	links := make([]string, c.width)
	for i := range links {
		links[i] = fmt.Sprintf("%s/%d", title, i)
	}
	return Page{Title: title, Links: links}, nil
}

func (c *countingPages) Capability() string { return "navigate" }

func startRace(pages Pages, loads int) (*Match, *racePlay) {
	m := NewMatchWith(LinkRace{}, MatchSetup{MatchID: "R1M1", Seed: 3,
		GameSetup: RaceSetup{Pages: pages, Settings: RaceSettings{MaxSteps: 4, MaxDistance: 4, DrawLoads: loads}}}, "P01", "P02")
	m.Joined("P01", true)
	m.Joined("P02", true)
	return m, m.play.(*racePlay)
}

// noRace checks a match that drew no race: both players in ERROR, a draw
// (the page server's failure is neither player's loss), and one
// APP_NAVIGATION_ERROR of the match, of no player.
func noRace(t *testing.T, m *Match) {
	t.Helper()
	o := m.Outcome()
	if !m.Done() || o.Status != StatusDraw || len(o.Offenders) != 0 || o.Statuses["P01"] != RaceError || o.Statuses["P02"] != RaceError {
		t.Fatalf("outcome %+v, want a draw with both in ERROR", o)
	}
	errs := o.Details["errors"].([]map[string]any)
	if len(errs) != 1 || errs[0]["error_type"] != ErrorNavigation || errs[0]["player"] != nil {
		t.Errorf("errors %v, want one APP_NAVIGATION_ERROR of the match", errs)
	}
}

// A page server whose every page lists 10,000 links (10^12 pages three
// links away): the draw loads at most DrawLoads pages and still races.
func TestRaceDrawIsBoundedInPageLoads(t *testing.T) {
	pages := &countingPages{width: 10_000}
	m, p := startRace(pages, 20)
	if pages.loads > 20 {
		t.Errorf("the draw loaded %d pages, more than its 20", pages.loads)
	}
	if m.Done() || p.start != "Start" || p.target == "" {
		t.Fatalf("no race drawn: %+v", m.Outcome())
	}
	if len(p.seen) > 2 {
		t.Errorf("the race keeps %d pages of its draw, want only its start and target", len(p.seen))
	}
}

// A lying page server: every page at distance 2 or more is a link to
// nowhere. The draw never races to a page that does not load; with no
// valid target it is the page server's error, within the draw's loads.
func TestRaceDrawNeverRacesToAMissingPage(t *testing.T) {
	deep := func(title string) bool {
		return len(title) > len("Start/0/0") || slices.Contains([]string{"Start/0/0", "Start/1/1"}, title)
	}
	pages := &countingPages{width: 3, missing: deep}
	m, p := startRace(pages, 200)
	if m.Done() {
		t.Fatalf("no race drawn: %+v", m.Outcome())
	}
	if deep(p.target) {
		t.Errorf("the race goes to %q, a page that does not exist", p.target)
	}
	if _, err := (&countingPages{width: 3, missing: deep}).Page(p.target); err != nil {
		t.Errorf("target %q: %v", p.target, err)
	}

	nowhere := &countingPages{width: 3, missing: func(title string) bool { return title != "Start" && len(title) > len("Start/0") }}
	m, _ = startRace(nowhere, 200)
	noRace(t, m)
	if nowhere.loads > 200 {
		t.Errorf("%d loads, more than the draw's 200", nowhere.loads)
	}
}

// A page server that stops answering stops the draw at once: the match is
// the page server's error, not a loss of either player.
func TestRaceDrawStopsWhenThePageServerIsSilent(t *testing.T) {
	pages := &countingPages{width: 1000, silentAfter: 3}
	m, _ := startRace(pages, 200)
	noRace(t, m)
	if pages.loads > 4 {
		t.Errorf("%d loads, want the draw stopped at the first unanswered", pages.loads)
	}
	if reason := m.Outcome().Reason; !strings.Contains(reason, "no race") || !strings.Contains(reason, "did not answer") {
		t.Errorf("reason %q", reason)
	}
}

// A page kept with links dropped past the reader's cap says so in the turn.
func TestDroppedLinksAreToldInTheTurn(t *testing.T) {
	p := &racePlay{seen: map[string]Page{"A": {Title: "A", Links: []string{"B"}, DroppedLinks: 99_999}}, current: [2]string{"A", "A"},
		settings: DefaultRaceSettings, target: "C"}
	if got := p.Turn(SideA).State["links_dropped"]; got != 99_999 {
		t.Errorf("links_dropped %v", got)
	}
}
