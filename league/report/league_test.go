package report_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/report"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const (
	leagueTimeout = 3 * time.Minute
	adminToken    = "adm-report-test-0123456789abcdef"
	// hostile is a display name made to break a page or a spreadsheet:
	// markup, an attribute, a script handler and a leading formula sign.
	hostile = `=<img src=x onerror=alert(1)>&"P'`
)

// An even/odd league of model players and random ones, headless with
// --csv: the exports it writes agree with standings.json, the journal and
// every match file, and `leaguetui report` on the folder writes the same.
func TestEvenOddExports(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	t.Setenv("OPENAI_API_KEY", "sk-report-test-key")
	dir, csvDir := t.TempDir(), t.TempDir()
	run := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, "--no-ui", "--quiet", "--free-ports", "--data", dir,
		"--seed", "3", "--referees", "1", "--players", "4", "--strategies", "llm,random", "--llm-provider", "openai",
		"--llm-base-url", fake.OpenAIURL(), "--llm-model", "fake", "--move-timeout", "3s", "--csv", csvDir)
	if run.Err != nil {
		t.Fatalf("leaguetui: %v\n%s", run.Err, run.Stderr)
	}
	checkExports(t, dir, csvDir, 6)
	out := reportOf(t, dir)
	for _, name := range []string{report.StandingsCSV, report.CrosstableCSV, report.MatchesCSV} {
		if a, b := read(t, filepath.Join(csvDir, name)), read(t, filepath.Join(out, name)); a != b {
			t.Errorf("%s: --csv wrote\n%s\nleaguetui report wrote\n%s", name, a, b)
		}
	}
	checkHTML(t, dir, out, "")
}

// A link race of a model player, a built-in racer and a player of
// another implementation with a hostile display name, every agent its own
// process: the report shows both paths of every race with their statuses,
// and no string of the folder escapes its place in the page or becomes a
// formula in a spreadsheet.
func TestLinkRaceReport(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	t.Setenv("OPENAI_API_KEY", "sk-report-test-key")
	dir := t.TempDir()
	game := []string{"--game", "link_race", "--move-timeout", "5s", "--retry-delay", "50ms"}
	out := filepath.Join(dir, "test-output")
	pages := leaguetest.Start(t, "pages", out, false, nil, append([]string{"pages", "--port", "0", "--seed", "4"}, game...)...)
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "5"}, game...)...)
	leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", append([]string{"--pages-url", pages.Endpoint}, game...)...)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "model", append([]string{"--strategy", "llm", "--llm-provider", "openai",
		"--llm-base-url", fake.OpenAIURL(), "--llm-model", "fake"}, game...)...)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "greedy", append([]string{"--strategy", "greedy"}, game...)...)
	// Another implementation may call itself anything; this one also
	// answers with pages that are no links, so the race records errors.
	leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, hostile, "wrong_link")
	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.UntilCompleted(t, ctl, 0, leagueTimeout)
	waitStandingsFile(t, dir, 3)
	// A copy, as one taken to another machine, that no agent still writes to.
	dir = copyOf(t, dir)
	out = reportOf(t, dir)
	checkExports(t, dir, out, 3)
	checkHTML(t, dir, out, hostile)
	l, err := report.Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	page := read(t, filepath.Join(out, report.HTMLFile))
	for _, m := range l.Matches {
		if m.Race == nil || len(m.Race.PathA) == 0 || len(m.Race.PathB) == 0 {
			t.Fatalf("%s: no race paths read: %+v", m.MatchID, m.Race)
		}
		for _, p := range append(m.Race.PathA, m.Race.PathB...) {
			if !strings.Contains(page, "<li>"+escape(p)+"</li>") {
				t.Errorf("%s: the report lacks page %q of a path", m.MatchID, p)
			}
		}
		for _, s := range []string{m.Race.StatusA, m.Race.StatusB} {
			if !strings.Contains(page, " · "+s+" · ") {
				t.Errorf("%s: the report lacks status %s", m.MatchID, s)
			}
		}
	}
}

// reportOf runs `leaguetui report` on the data folder and checks it wrote
// nothing into it.
func reportOf(t *testing.T, dir string) string {
	t.Helper()
	before := leaguetest.FolderState(t, dir)
	out := filepath.Join(t.TempDir(), "report")
	run := leaguetest.RunLeaguetui(t, dir, time.Minute, nil, "report", dir, "--out", out)
	if run.Err != nil {
		t.Fatalf("leaguetui report: %v\n%s%s", run.Err, run.Stdout, run.Stderr)
	}
	if strings.Contains(run.Stdout, "note:") {
		t.Errorf("the report found problems in a league that completed:\n%s", run.Stdout)
	}
	if after := leaguetest.FolderState(t, dir); !maps.Equal(before, after) {
		t.Errorf("leaguetui report changed the data folder")
	}
	return out
}

// waitStandingsFile waits, bounded, for the manager's standings.json to
// count every match and fit them all (it is written at most 250 ms after
// the journal).
func waitStandingsFile(t *testing.T, dir string, matches int) {
	t.Helper()
	path := filepath.Join(dir, "leagues", leaguetest.LeagueIn(t, dir), "standings.json")
	deadline := time.Now().Add(30 * time.Second)
	for {
		var s protocol.StandingsFile
		raw, err := os.ReadFile(path)
		if err == nil && json.Unmarshal(raw, &s) == nil && s.State == engine.LeagueCompleted &&
			s.MatchesDone == matches && s.Ratings != nil && s.Ratings.MatchesFitted == matches {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("standings.json does not count the %d matches: %s", matches, raw)
		}
		time.Sleep(20 * time.Millisecond) // polling a file the manager writes on its own clock
	}
}

// copyOf copies a data folder.
func copyOf(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "data")
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// matchFile is a match file as these tests read it.
type matchFile = leaguetest.MatchFile[struct {
	leaguetest.MatchResult
	Choices        map[string]string `json:"choices"`
	PlayerStatuses map[string]string `json:"player_statuses"`
}]

// checkExports checks the four exports in out against standings.json,
// the journal and every match file of the data folder.
func checkExports(t *testing.T, dir, out string, matches int) {
	t.Helper()
	var standings protocol.StandingsFile
	leaguetest.ReadJSON(t, filepath.Join(dir, "leagues", leaguetest.LeagueIn(t, dir), "standings.json"), &standings)
	files := map[string]matchFile{}
	tokens := map[string][2]int64{}
	for _, f := range leaguetest.ReadMatchFiles[matchFile](t, dir, leaguetest.LeagueIn(t, dir)) {
		files[f.MatchID] = f
		for _, e := range f.Transcript {
			if m, ok := e.Content["model"].(map[string]any); ok {
				p := e.Content["player_id"].(string)
				tokens[p] = [2]int64{tokens[p][0] + int64(m["input_tokens"].(float64)), tokens[p][1] + int64(m["output_tokens"].(float64))}
			}
		}
	}
	if len(files) != matches || standings.MatchesDone != matches {
		t.Fatalf("%d match files, %d matches done; want %d", len(files), standings.MatchesDone, matches)
	}
	if len(tokens) == 0 {
		t.Fatal("no model move in the match files")
	}
	journal := journalResults(t, dir)

	// standings.csv: every row of standings.json, every column.
	rows := readCSV(t, filepath.Join(out, report.StandingsCSV), report.StandingsHead)
	if len(rows) != len(standings.Standings) {
		t.Fatalf("standings.csv has %d rows, standings.json %d", len(rows), len(standings.Standings))
	}
	ratings := map[string]protocol.RatingRow{}
	for _, r := range standings.Ratings.Players {
		ratings[r.PlayerID] = r
	}
	for i, want := range standings.Standings {
		got := rows[i]
		name := want.DisplayName
		if strings.HasPrefix(name, "=") {
			name = "'" + name // a formula in a spreadsheet otherwise
		}
		r := ratings[want.PlayerID]
		wantRow := map[string]string{"rank": strconv.Itoa(want.Rank), "player_id": want.PlayerID, "display_name": name,
			"played": strconv.Itoa(want.Played), "wins": strconv.Itoa(want.Wins), "draws": strconv.Itoa(want.Draws),
			"losses": strconv.Itoa(want.Losses), "technical_losses": strconv.Itoa(want.TechnicalLosses),
			"points": strconv.Itoa(want.Points), "elo": strconv.FormatFloat(r.Elo, 'f', 1, 64),
			"ci95": strconv.FormatFloat(r.CI95, 'f', 1, 64), "status": want.Status,
			"rank_low": strconv.Itoa(r.RankInterval[0]), "rank_high": strconv.Itoa(r.RankInterval[1]), "tie_group": strconv.Itoa(r.TieGroup)}
		if tk, ok := tokens[want.PlayerID]; ok {
			wantRow["input_tokens"], wantRow["output_tokens"] = fmt.Sprint(tk[0]), fmt.Sprint(tk[1])
		}
		for col, v := range wantRow {
			if got[col] != v {
				t.Errorf("standings.csv row %d %s = %q, want %q", i+1, col, got[col], v)
			}
		}
	}

	// crosstable.csv: each player's letters add up to its row of the table.
	cross, err := csv.NewReader(strings.NewReader(read(t, filepath.Join(out, report.CrosstableCSV)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range standings.Standings {
		row := cross[i+1]
		letters := strings.Join(row[1:], " ")
		count := func(l string) int { return strings.Count(letters, l) }
		if row[0] != want.PlayerID || count("W") != want.Wins || count("D") != want.Draws ||
			count("L")+count("T") != want.Losses || count("T") != want.TechnicalLosses {
			t.Errorf("crosstable row %v, standings row %+v", row, want)
		}
	}

	// matches.csv and results.jsonl: one per match, as its file and the journal have it.
	mrows := readCSV(t, filepath.Join(out, report.MatchesCSV), report.MatchesHead)
	lines := strings.Split(strings.TrimSpace(read(t, filepath.Join(out, report.ResultsJSONL))), "\n")
	if len(mrows) != matches || len(lines) != matches || len(journal) != matches {
		t.Fatalf("%d rows in matches.csv, %d lines in results.jsonl, %d results in the journal; want %d",
			len(mrows), len(lines), len(journal), matches)
	}
	for i, row := range mrows {
		var line report.Result
		if err := json.Unmarshal([]byte(lines[i]), &line); err != nil {
			t.Fatal(err)
		}
		f, ok := files[row["match_id"]]
		ev := journal[row["match_id"]]
		if !ok || ev.Result == nil || line.MatchID != f.MatchID {
			t.Fatalf("match %q (line %q): no match file or journal result", row["match_id"], line.MatchID)
		}
		a, b := f.Players["player_A"], f.Players["player_B"]
		winner := ""
		if f.Result.Winner != nil {
			winner = *f.Result.Winner
		}
		want := map[string]string{"round": strconv.Itoa(f.RoundID), "player_a": a, "player_b": b,
			"result": f.Result.Status, "winner": winner, "referee": f.RefereeID, "move_a": f.Result.Choices[a],
			"move_b": f.Result.Choices[b], "finished_at": ev.Time.UTC().Format("2006-01-02T15:04:05.000Z07:00")}
		if s := f.Result.PlayerStatuses; s != nil {
			want["status_a"], want["status_b"] = s[a], s[b]
		}
		for col, v := range want {
			if row[col] != v {
				t.Errorf("matches.csv %s: %s = %q, want %q", f.MatchID, col, row[col], v)
			}
		}
		if d, _ := strconv.Atoi(row["duration_ms"]); d < 0 || line.DurationMS != int64(d) {
			t.Errorf("%s: duration %q in matches.csv, %d in results.jsonl", f.MatchID, row["duration_ms"], line.DurationMS)
		}
		if line.Status != f.Result.Status || line.Winner != winner || line.Referee != f.RefereeID ||
			!maps.Equal(line.Score, f.Result.Score) || line.Round != f.RoundID || line.PlayerA != a || line.PlayerB != b {
			t.Errorf("results.jsonl %s: %+v; match file %+v", f.MatchID, line, f.Result)
		}
		if line.Moves[a] != ev.Facts.Moves[a] || line.Moves[b] != ev.Facts.Moves[b] {
			t.Errorf("results.jsonl %s: moves %v, journal %v", f.MatchID, line.Moves, ev.Facts.Moves)
		}
	}
}

// journalResults reads the journal's match_result events by match.
func journalResults(t *testing.T, dir string) map[string]engine.Event {
	t.Helper()
	results := map[string]engine.Event{}
	for _, ev := range leaguetest.Journal(t, dir, leaguetest.LeagueIn(t, dir)) {
		if ev.Kind == engine.EventMatchResult {
			results[ev.MatchID] = ev
		}
	}
	return results
}

// checkHTML checks the page is self-contained, names every match and
// player, and shows a hostile name only escaped.
func checkHTML(t *testing.T, dir, out, hostileName string) {
	t.Helper()
	page := read(t, filepath.Join(out, report.HTMLFile))
	for _, bad := range []string{"<script", "<link", "src=\"http", "href=\"http", "url(http", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("the report holds %q: it must need nothing from the network and run no script", bad)
		}
	}
	var standings protocol.StandingsFile
	leaguetest.ReadJSON(t, filepath.Join(dir, "leagues", leaguetest.LeagueIn(t, dir), "standings.json"), &standings)
	for _, r := range standings.Standings {
		row := fmt.Sprintf(`<td class="mono">%s</td><td>%s</td><td class="n">%d</td>`, r.PlayerID, escape(r.DisplayName), r.Played)
		if !strings.Contains(page, row) {
			t.Errorf("the standings lack %s's row %q", r.PlayerID, row)
		}
	}
	for _, f := range leaguetest.ReadMatchFiles[matchFile](t, dir, leaguetest.LeagueIn(t, dir)) {
		if !strings.Contains(page, `id="match-`+f.MatchID+`"`) || !strings.Contains(page, `href="#match-`+f.MatchID+`"`) {
			t.Errorf("the report has no section or link for %s", f.MatchID)
		}
	}
	if strings.Count(page, "<svg") != 1 || strings.Count(page, "<circle") != len(standings.Ratings.Players) {
		t.Errorf("want one SVG with a dot per rated player (%d)", len(standings.Ratings.Players))
	}
	if hostileName != "" {
		if strings.Contains(page, "<img") || strings.Contains(page, `"P'`) {
			t.Error("the hostile display name reached the page unescaped")
		}
		if !strings.Contains(page, escape(hostileName)) {
			t.Errorf("the page does not show the hostile name escaped, %q", escape(hostileName))
		}
	}
}

// escape is html/template's escaping of text.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(s)
}

// readCSV reads a CSV export with the given header into rows by column.
func readCSV(t *testing.T, path string, head []string) []map[string]string {
	t.Helper()
	all, err := csv.NewReader(strings.NewReader(read(t, path))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 || !slices.Equal(all[0], head) {
		t.Fatalf("%s: header %v, want %v", path, all[:min(1, len(all))], head)
	}
	var rows []map[string]string
	for _, rec := range all[1:] {
		row := map[string]string{}
		for i, col := range head {
			row[col] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A league stopped by the admin while a match runs: the report lists every
// scheduled match, the one that ran as ABANDONED and those never played as
// UNPLAYED, and counts no result the journal does not hold.
func TestStoppedLeagueReport(t *testing.T) {
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "2")
	leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01")
	leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, "slow1", "slow", "--delay", "3s")
	leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, "slow2", "slow", "--delay", "3s")
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "random", "--strategy", "random")
	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.NextEvents(t, ctl, 0, time.Minute, engine.EventMatchAssigned)
	if err := ctl.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.NextEvents(t, ctl, 0, time.Minute, engine.EventStopped)
	dir = copyOf(t, dir)
	l, err := report.Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[string]int{}
	for _, m := range l.Matches {
		statuses[m.Status()]++
	}
	journal := journalResults(t, dir)
	if len(l.Matches) != 3 || statuses["ABANDONED"] == 0 || statuses["UNPLAYED"] == 0 ||
		statuses["ABANDONED"]+statuses["UNPLAYED"]+len(journal) != 3 || l.State != engine.LeagueStopped {
		t.Errorf("state %s, %d matches, statuses %v, %d results in the journal", l.State, len(l.Matches), statuses, len(journal))
	}
	out := t.TempDir()
	if err := l.Write(out); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, filepath.Join(out, report.MatchesCSV), report.MatchesHead)
	for _, row := range rows {
		if _, played := journal[row["match_id"]]; !played && (row["winner"] != "" || row["finished_at"] != "") {
			t.Errorf("matches.csv gives a match without a result %v", row)
		}
	}
}
