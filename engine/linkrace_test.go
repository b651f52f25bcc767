package engine

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// fakePages is a page graph in memory; pages in broken fail to load.
type fakePages struct {
	links  map[string][]string
	broken map[string]bool
}

func (f fakePages) Titles() ([]string, error) {
	var out []string
	for t := range f.links {
		out = append(out, t)
	}
	return out, nil
}

func (f fakePages) Page(title string) (Page, error) {
	links, ok := f.links[title]
	if !ok || f.broken[title] {
		return Page{}, errors.New("no such page " + title)
	}
	return Page{Title: title, Links: links, Summary: "about " + title}, nil
}

func (fakePages) Capability() string { return "navigate" }

// line is A -> B -> C -> D, plus A -> X (a dead end) and B -> Y (broken).
func line() fakePages {
	return fakePages{links: map[string][]string{"A": {"B", "X"}, "B": {"C", "Y"}, "C": {"D"}, "D": {}, "X": {}, "Y": {}},
		broken: map[string]bool{"Y": true}}
}

// race plays a link race whose start is forced to A and target to C.
func race(t *testing.T, pages Pages, maxSteps int, a, b []Answer) Outcome {
	t.Helper()
	m := NewMatchWith(LinkRace{}, MatchSetup{MatchID: "R1M1", Seed: 1,
		GameSetup: RaceSetup{Pages: pages, Settings: RaceSettings{MaxSteps: maxSteps, MaxDistance: 2}}}, "P01", "P02")
	m.Joined("P01", true)
	m.Joined("P02", true)
	if p, ok := m.play.(*racePlay); ok && p.start != "" {
		p.start, p.target, p.current, p.paths = "A", "C", [2]string{"A", "A"}, [2][]string{{"A"}, {"A"}}
		if _, err := p.load("A"); err != nil {
			t.Fatal(err)
		}
	}
	for turn := 0; !m.Done() && turn < 20; turn++ {
		for i, answers := range [][]Answer{a, b} {
			player := m.Players()[i]
			if len(answers) > turn && slicesContains(m.Pending(), player) {
				if err := m.Answered(player, answers[turn]); err != nil {
					t.Fatalf("turn %d: %v", turn+1, err)
				}
			}
		}
	}
	if !m.Done() {
		t.Fatalf("match not over; pending %v", m.Pending())
	}
	return m.Outcome()
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func nav(titles ...string) []Answer {
	out := make([]Answer, len(titles))
	for i, t := range titles {
		out[i] = Answer{MoveType: NavigateMove, Choice: t}
	}
	return out
}

func TestLinkRaceStatusesAndScoring(t *testing.T) {
	tests := []struct {
		name         string
		a, b         []Answer
		maxSteps     int
		wantStatuses [2]string
		wantWinner   string
		wantError    string // the error type reported, if any
	}{
		{"both win in as many steps: draw", nav("B", "C"), nav("B", "C"), 4, [2]string{RaceWon, RaceWon}, "", ""},
		{"a link not on the page", nav("B", "C"), nav("D"), 4, [2]string{RaceWon, RaceLostInvalidMove}, "P01", ErrorInvalidLink},
		{"no move", nav("B", "C"), []Answer{{MoveType: NavigateMove}}, 4, [2]string{RaceWon, RaceLostInvalidMove}, "P01", ErrorNoToolCall},
		{"another tool", []Answer{{MoveType: "search_wikipedia", Choice: "C"}}, nav("B", "C"), 4, [2]string{RaceLostInvalidMove, RaceWon}, "P02", ErrorInvalidTool},
		{"navigation fails", nav("B", "Y"), nav("B", "C"), 4, [2]string{RaceError, RaceWon}, "P02", ErrorNavigation},
		{"steps used up", nav("X"), nav("B", "C"), 1, [2]string{RaceLostMaxSteps, RaceLostMaxSteps}, "", ""},
		{"neither reaches it: draw", nav("X"), nav("Z"), 1, [2]string{RaceLostMaxSteps, RaceLostInvalidMove}, "", ErrorInvalidLink},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := race(t, line(), tt.maxSteps, tt.a, tt.b)
			if got := [2]string{o.Statuses["P01"], o.Statuses["P02"]}; got != tt.wantStatuses {
				t.Errorf("statuses %v, want %v", got, tt.wantStatuses)
			}
			if o.Winner != tt.wantWinner {
				t.Errorf("winner %q, want %q (%s)", o.Winner, tt.wantWinner, o.Reason)
			}
			errs := o.Details["errors"].([]map[string]any)
			if tt.wantError == "" && len(errs) > 0 || tt.wantError != "" && (len(errs) != 1 || errs[0]["error_type"] != tt.wantError) {
				t.Errorf("errors %v, want %q", errs, tt.wantError)
			}
		})
	}
}

func TestLinkRaceFewerStepsWinsAndPathsAreKept(t *testing.T) {
	pages := line()
	pages.links["A"] = []string{"B", "X", "C"} // a shortcut
	pages.links["X"] = []string{"B"}
	o := race(t, pages, 4, nav("X", "B", "C"), nav("C"))
	if o.Winner != "P02" || o.Details["steps_A"] != 3 || o.Details["steps_B"] != 1 {
		t.Errorf("outcome %+v, want P02 in 1 step to beat P01 in 3", o)
	}
	if !reflect.DeepEqual(o.Details["path_A"], []string{"A", "X", "B", "C"}) || !reflect.DeepEqual(o.Details["path_B"], []string{"A", "C"}) {
		t.Errorf("paths %v and %v", o.Details["path_A"], o.Details["path_B"])
	}
}

func TestLinkRaceInvalidLinkMetadata(t *testing.T) {
	o := race(t, line(), 4, nav("C"), nav("B", "C"))
	meta := o.Details["errors"].([]map[string]any)[0]["metadata"].(map[string]any)
	call := meta["tool_call"].(map[string]any)
	if meta["requested_page"] != "C" || meta["current_page"] != "A" || meta["is_target_page"] != true ||
		meta["available_links_count"] != 2 || call["name"] != NavigateMove {
		t.Errorf("metadata %v", meta)
	}
}

func TestLinkRaceWithoutPagesIsACapabilityError(t *testing.T) {
	m := NewMatchWith(LinkRace{}, MatchSetup{MatchID: "R1M1", Seed: 1}, "P01", "P02")
	m.Joined("P01", true)
	m.Joined("P02", true)
	o := m.Outcome()
	if !m.Done() || o.Status != StatusDraw || o.Statuses["P01"] != RaceError {
		t.Fatalf("outcome %+v", o)
	}
	if errs := o.Details["errors"].([]map[string]any); errs[0]["error_type"] != ErrorCapability {
		t.Errorf("errors %v", errs)
	}
}

// The drawn race is the same for the same seed and match, its target 2 to
// MaxDistance links from its start, and differs across matches.
func TestLinkRaceDrawIsReproducibleAndAtTheRightDistance(t *testing.T) {
	pages := fakePages{links: map[string][]string{}}
	for i := range 30 {
		pages.links[fmt.Sprint("P", i)] = []string{fmt.Sprint("P", (i+1)%30), fmt.Sprint("P", (i*7)%30)}
	}
	draws := map[string]bool{}
	for _, id := range []string{"R1M1", "R1M2", "R2M1", "R2M2", "R3M1"} {
		setup := MatchSetup{MatchID: id, Seed: 7, GameSetup: RaceSetup{Pages: pages, Settings: RaceSettings{MaxSteps: 5, MaxDistance: 3}}}
		a, b := LinkRace{}.Start(setup).(*racePlay), LinkRace{}.Start(setup).(*racePlay)
		if a.start != b.start || a.target != b.target {
			t.Fatalf("%s: %s->%s then %s->%s", id, a.start, a.target, b.start, b.target)
		}
		if d := distance(pages, a.start, a.target); d < 2 || d > 3 {
			t.Errorf("%s: %s -> %s is %d links", id, a.start, a.target, d)
		}
		draws[a.start+">"+a.target] = true
	}
	if len(draws) < 2 {
		t.Errorf("five matches drew %v", draws)
	}
}

func distance(p fakePages, from, to string) int {
	seen, frontier := map[string]bool{from: true}, []string{from}
	for d := 0; len(frontier) > 0; d++ {
		var next []string
		for _, f := range frontier {
			if f == to {
				return d
			}
			for _, l := range p.links[f] {
				if !seen[l] {
					seen[l] = true
					next = append(next, l)
				}
			}
		}
		frontier = next
	}
	return -1
}

func TestGreedyRacerPrefersSharedWordsAndNewPages(t *testing.T) {
	greedy, _ := NewStrategyFor(LinkRaceType, "greedy", 1)
	ctx := MoveContext{MatchID: "R1M1", Self: "P01", Turn: 2, State: map[string]any{
		"links": []any{"Paris", "French cuisine", "French Alps", "Cheese"}, "target_page": "French Alps cheese",
		"path": []any{"Start", "French Alps"}}}
	if got := greedy.Choose(ctx); got != "French cuisine" && got != "Cheese" {
		t.Errorf("greedy chose %q; French Alps is visited, and French cuisine and Cheese share a word", got)
	}
	ctx.State["links"] = []any{"Paris", "French Alps cheese"}
	if got := greedy.Choose(ctx); got != "French Alps cheese" {
		t.Errorf("greedy chose %q over the target", got)
	}
}

// A player who fails technically loses the match by technical loss and ends
// its race in ERROR; the match keeps the race's details.
func TestLinkRaceTechnicalFailureIsError(t *testing.T) {
	m := NewMatchWith(LinkRace{}, MatchSetup{MatchID: "R1M1", Seed: 1,
		GameSetup: RaceSetup{Pages: line(), Settings: RaceSettings{MaxSteps: 4, MaxDistance: 2}}}, "P01", "P02")
	m.Joined("P01", true)
	m.Joined("P02", true)
	if err := m.Answered("P01", Answer{MoveType: NavigateMove, Choice: "B"}); err != nil {
		t.Fatal(err)
	}
	m.Failed("P02", "no answer in time")
	o := m.Outcome()
	if o.Status != StatusTechnicalLoss || o.Winner != "P01" || o.Statuses["P02"] != RaceError {
		t.Fatalf("outcome %+v", o)
	}
	errs := o.Details["errors"].([]map[string]any)
	if len(errs) != 1 || errs[0]["error_type"] != ErrorGeneration || errs[0]["player"] != "B" {
		t.Errorf("errors %v", errs)
	}
}
