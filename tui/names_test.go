package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// paneSizes are the sizes the console is checked at (issue 49): the
// smallest it supports, the split layout docs/console.md describes, a wide one.
var paneSizes = [][2]int{{80, 24}, {120, 40}, {200, 50}}

// TestDisplayNamesInEveryPane (issue 49): a roster's names show beside the
// ids in the standings, the crosstable, the matches, the rounds and the
// agents, at every size from 80x24 up, shortened rather than dropped on a
// narrow pane.
func TestDisplayNamesInEveryPane(t *testing.T) {
	for _, size := range paneSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := newTestModel(t, nil, t0)
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			feed(m, namedRunningLeague(t))
			for _, keys := range [][]string{{"3"}, {"c"}, {"c", "2"}, {"1"}, {"4"}} {
				press(m, keys...)
				screen := m.screen()
				for _, name := range []string{"alice", "bob", "carol", "dave", "erin", "fre"} {
					if !strings.Contains(screen, name) {
						t.Errorf("after %v, %q is not on screen:\n%s", keys, name, screen)
					}
				}
				for i, line := range strings.Split(screen, "\n") {
					if w := visibleWidth(line); w != size[0] {
						t.Errorf("after %v, line %d is %d cells wide, not %d: %q", keys, i, w, size[0], line)
					}
				}
			}
		})
	}
}

// TestStandingsKeepTheFiguresBesideNames: however narrow the standings
// pane (the companion of the split layout is 53 cells), the points stay on
// screen beside the names.
func TestStandingsKeepTheFiguresBesideNames(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, namedLeague(t))
	p := m.panes[paneStandings]
	for _, width := range []int{53, 60, 66, 80, 120} {
		p.SetSize(width, 12)
		view := p.View()
		if !strings.Contains(view, "points") || !strings.Contains(screenLine(view, "alice"), " 15") {
			t.Errorf("at %d cells the standings lose alice's points:\n%s", width, view)
		}
	}
}

func TestIdName(t *testing.T) {
	for _, tc := range []struct {
		id, name string
		n        int
		want     string
	}{
		{"P01", "alice", 20, "P01 alice"},
		{"P01", "alice", 8, "P01 ali…"},
		{"P01", "alice", 4, "ali…"}, // no room for both: the name
		{"P01", "P01", 10, "P01"},
		{"P01", "", 10, "P01"},
	} {
		if got := idName(tc.id, tc.name, tc.n); got != tc.want {
			t.Errorf("idName(%q, %q, %d) = %q, want %q", tc.id, tc.name, tc.n, got, tc.want)
		}
	}
}

// TestCrosstableWithSeveralGamesAPair (issue 49): with --games-per-pair 2
// a cell is the row player's score so far over the pair's games, ▶ while
// one runs, not the last game's "to play".
func TestCrosstableWithSeveralGamesAPair(t *testing.T) {
	m := newTestModel(t, nil, t0)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	l := twoGamesLeague(t)
	feed(m, l)
	press(m, "3", "c")
	screen := m.screen()
	if !strings.Contains(screen, "2 games a pair") {
		t.Fatalf("no legend for two games a pair:\n%s", screen)
	}
	// Each pair's score so far, from the results the fixture played.
	st := m.st
	for _, a := range []string{"P01", "P02", "P03", "P04"} {
		for _, b := range []string{"P01", "P02", "P03", "P04"} {
			if a == b {
				continue
			}
			ms := st.Pair(a, b)
			if len(ms) != 2 {
				t.Fatalf("%s and %s meet %d times, want 2", a, b, len(ms))
			}
			halves, done, running := 0, 0, false
			for _, mi := range ms {
				switch {
				case mi.Result != nil:
					done++
					if mi.Result.Status == engine.StatusDraw {
						halves++
					} else if mi.Result.Winner == a {
						halves += 2
					}
				case mi.Referee != "":
					running = true
				}
			}
			want := "·"
			if done > 0 {
				want = scoreText(halves)
			}
			if running {
				want = strings.TrimPrefix(want, "·") + "▶"
			}
			if got := pairCell(ms, a); got != want {
				t.Errorf("cell %s v %s = %q, want %q", a, b, got, want)
			}
		}
	}
	if !strings.Contains(screen, "½▶") {
		t.Errorf("the crosstable does not show the scores so far:\n%s", screen)
	}
}

// TestTranscriptWrapsAtWords (issue 49): a message's fields wrap at
// spaces (and after a JSON value's commas), never in a word, at every
// size; the summary names the players.
func TestTranscriptWrapsAtWords(t *testing.T) {
	for _, size := range paneSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			fake := newFakeManager(t)
			m := New(context.Background(), Options{Control: control.New(fake.srv.URL, ""), Now: func() time.Time { return t0 },
				Location: time.UTC, NoColor: true, HealthEvery: -1})
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			l := namedLeague(t)
			feed(m, l)
			id := l.rounds[0].Matches[0].MatchID
			words := strings.Fields(strings.Repeat("the referee drew a number between one and ten and nobody guessed it ", 4))
			content := map[string]any{"message_type": "GAME_OVER", "reason": strings.Join(words, " "),
				"game_state": map[string]any{"choices": map[string]any{"P01": "even", "P02": "odd"}, "drawn_number": 4, "winner": "P01"}}
			file := map[string]any{"match_id": id, "game_type": "even_odd",
				"lifecycle": map[string]any{"started_at": "2025-03-14T15:09:27Z", "finished_at": "2025-03-14T15:09:28Z"},
				"transcript": []any{map[string]any{"seq": 1, "timestamp": "2025-03-14T15:09:27.100Z",
					"message_type": "GAME_OVER", "from": "REF01", "to": "P01", "content": content}}}
			raw, _ := json.Marshal(file)
			fake.matchFiles[id] = string(raw)
			msg := loadTranscript(t.Context(), m.opts.Control, id)().(transcriptMsg)
			if msg.Err != nil {
				t.Fatal(msg.Err)
			}
			m.Update(openMatchMsg{MatchID: id})
			m.Update(msg)
			screen := m.screen()
			if !strings.Contains(screen, "alice (P01) vs bob (P02)") {
				t.Errorf("the summary does not name the players:\n%s", screen)
			}
			var text []string
			for _, line := range strings.Split(screen, "\n") {
				if strings.HasPrefix(line, "       ") && strings.TrimSpace(line) != "" {
					text = append(text, strings.Fields(line)...)
				}
			}
			got := strings.Join(text, " ")
			for _, w := range append(words, `"drawn_number":4,`, `{"choices":{"P01":"even",`) {
				if !strings.Contains(" "+got+" ", " "+w+" ") && !strings.Contains(got, w) {
					t.Errorf("%q is cut across lines:\n%s", w, screen)
				}
			}
			for _, w := range words {
				if !strings.Contains(" "+got+" ", " "+w+" ") && !strings.Contains(got, "reason=\""+w+" ") {
					t.Errorf("the word %q is cut:\n%s", w, screen)
				}
			}
		})
	}
}
