package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// LinkRaceType is the wire name of the link race.
const LinkRaceType = "link_race"

// NavigateMove is the link race's move: the title of a link to follow.
const NavigateMove = "navigate"

// A link racer's own ending (the seed's game statuses).
const (
	RaceWon             = "WON"
	RaceLostMaxSteps    = "LOST_MAX_STEPS"
	RaceLostInvalidMove = "LOST_INVALID_MOVE"
	RaceError           = "ERROR"
)

// The link race's error types, as the seed's error taxonomy names them.
const (
	ErrorInvalidLink = "MODEL_INVALID_LINK"
	ErrorNoToolCall  = "MODEL_NO_TOOL_CALL"
	ErrorInvalidTool = "MODEL_INVALID_TOOL"
	ErrorNavigation  = "APP_NAVIGATION_ERROR"
	ErrorCapability  = "APP_CAPABILITY_ERROR"
	ErrorGeneration  = "MODEL_GENERATION_ERROR" // the player failed technically: no answer, or none a move
)

// Page is what a page server says of one page.
type Page struct {
	Title   string
	Links   []string
	Summary string // "" if the server gives none
	// DroppedLinks counts the links past the reader's cap on links per
	// page: they are not on the page as the race sees it.
	DroppedLinks int
}

// Pages is where a link race reads its pages: the referee's client of a
// page server. The race calls it only from the match's turn loop.
type Pages interface {
	// Titles lists the pages races may start from.
	Titles() ([]string, error)
	// Page navigates to one page.
	Page(title string) (Page, error)
	// Capability names the server's tool the pages come through, for
	// error reports.
	Capability() string
}

// ErrPagesSilent is what Pages wrap when the page server did not answer
// a page at all within the reader's limit for one call: a race draw stops
// there (no race), since the server's other pages would not come either.
// The draw has no clock of its own: it is bounded by its page loads
// (DrawLoads), so the same seed draws the same race on any machine, at
// any load, from a server that answers.
var ErrPagesSilent = errors.New("the page server did not answer")

// RaceSettings bound a link race.
type RaceSettings struct {
	MaxSteps    int // moves each player has to reach the target
	MaxDistance int // the longest shortest path from start to target (at least 2)
	DrawLoads   int // pages one draw may load, the target's check included
}

// RaceSetup is the link race's part of a match's setup
// (MatchSetup.GameSetup): the pages it reads and its bounds.
type RaceSetup struct {
	Pages    Pages
	Settings RaceSettings
}

// DefaultRaceSettings are used where a setting is 0.
var DefaultRaceSettings = RaceSettings{MaxSteps: 8, MaxDistance: 4, DrawLoads: 200}

// minRaceDistance is the shortest race: the target is never one link away.
const minRaceDistance = 2

// maxRaceStarts bounds how many start pages a match tries before it gives
// up finding a target at the right distance.
const maxRaceStarts = 32

// maxReportedChars bounds a player's requested page in an error's metadata.
const maxReportedChars = 200

// LinkRace races two players from one page to another by following links:
// each turn each player sees its page, its links and the target, and
// answers one link. Fewer steps to the target wins; both reaching it in as
// many steps, or neither reaching it, is a draw.
type LinkRace struct{}

func init() {
	Register(LinkRace{})
	RegisterStrategy(LinkRaceType, "greedy", func(seed int64) Strategy { return &racer{name: "greedy", seed: seed} })
	RegisterStrategy(LinkRaceType, "random", func(seed int64) Strategy { return &racer{name: "random", seed: seed} })
}

// PageReader is a game whose matches read pages from a page server: the
// referee gives them a RaceSetup.
type PageReader interface {
	Game
	ReadsPages()
}

// ReadsPages marks the link race as a PageReader.
func (LinkRace) ReadsPages() {}

// Type returns LinkRaceType.
func (LinkRace) Type() string { return LinkRaceType }

// Start draws the match's start and target from the seed and loads the
// start page. Without pages, or when no race can be drawn, both players end
// in ERROR at once.
func (LinkRace) Start(setup MatchSetup) Play {
	race, _ := setup.GameSetup.(RaceSetup)
	settings := race.Settings
	if settings.MaxSteps <= 0 {
		settings.MaxSteps = DefaultRaceSettings.MaxSteps
	}
	if settings.MaxDistance < minRaceDistance {
		settings.MaxDistance = DefaultRaceSettings.MaxDistance
	}
	if settings.DrawLoads < minRaceDistance {
		settings.DrawLoads = DefaultRaceSettings.DrawLoads
	}
	p := &racePlay{pages: race.Pages, settings: settings, seen: map[string]Page{}}
	if p.pages == nil {
		p.failBoth(ErrorCapability, map[string]any{"reason": "no page server with a navigation capability"})
		return p
	}
	start, target, err := p.draw(setup.Rand("race"))
	if err != nil {
		// The page server's failure, not a player's: neither loses.
		p.noRace = err.Error()
		p.failBoth(ErrorNavigation, map[string]any{"nav_error": err.Error(), "navigation_capability": p.pages.Capability(),
			"reason": "the page server gave no valid race"})
		return p
	}
	p.start, p.target = start, target
	// The draw's other pages are not kept for the race.
	p.seen = map[string]Page{start: p.seen[start], target: p.seen[target]}
	for i := range p.current {
		p.current[i], p.paths[i] = start, []string{start}
	}
	return p
}

type racePlay struct {
	pages    Pages
	settings RaceSettings
	seen     map[string]Page // pages loaded in this match
	noRace   string          // why no race could be drawn; "" once one was

	start, target string
	current       [2]string
	paths         [2][]string
	steps         [2]int
	status        [2]string
	answers       [2]Answer
	errors        []map[string]any
}

// draw picks a start page and a target whose shortest path from it is
// between minRaceDistance and MaxDistance links, reproducibly from rng,
// loading at most DrawLoads pages; a page the server does not answer
// (ErrPagesSilent) stops it. The target is loaded too: a race never starts towards a
// page that does not exist; another target, or another start, is drawn.
func (p *racePlay) draw(rng *rand.Rand) (start, target string, err error) {
	d := &drawing{play: p, pages: p.pages, loadsLeft: p.settings.DrawLoads}
	titles, err := d.pages.Titles()
	if err != nil {
		return "", "", err
	}
	titles = slices.Clone(titles)
	sort.Strings(titles)
	tried := 0
	for _, i := range rng.Perm(len(titles)) {
		if tried >= maxRaceStarts || d.stopped != nil {
			break
		}
		tried++
		targets := d.within(titles[i])
		for len(targets) > 0 && d.stopped == nil {
			k := rng.IntN(len(targets))
			if _, err := d.load(targets[k]); err == nil {
				return titles[i], targets[k], nil
			}
			targets = slices.Delete(targets, k, k+1)
		}
	}
	if d.stopped != nil {
		return "", "", fmt.Errorf("no race drawn from %d start pages: %w", tried, d.stopped)
	}
	failed := ""
	if d.failed != nil {
		failed = fmt.Sprintf("; a page failed to load: %v", d.failed)
	}
	return "", "", fmt.Errorf("no two of %d pages are %d to %d links apart (%d start pages tried%s)",
		len(titles), minRaceDistance, p.settings.MaxDistance, tried, failed)
}

// errDrawLoads stops a draw that has loaded all the pages it may.
var errDrawLoads = errors.New("the race draw loaded all the pages it may")

// drawing is one race draw: the pages it reads through and what it may
// still load.
type drawing struct {
	play      *racePlay
	pages     Pages
	loadsLeft int
	stopped   error // why the draw stopped: its loads are used up, or the server is silent
	failed    error // the last page that failed to load, to say why no race was found
}

// within lists, sorted, the pages whose shortest path from start is between
// minRaceDistance and MaxDistance links. Pages that fail to load are left
// out; a search out of loads lists what it found.
func (d *drawing) within(start string) []string {
	distance := map[string]int{start: 0}
	frontier := []string{start}
	var found []string
	for dist := 1; dist <= d.play.settings.MaxDistance && len(frontier) > 0 && d.stopped == nil; dist++ {
		var next []string
		for _, title := range frontier {
			if d.loadsLeft <= d.reserve() {
				break // the rest of the loads check targets
			}
			page, err := d.load(title)
			if d.stopped != nil {
				break
			}
			if err != nil {
				continue
			}
			for _, link := range page.Links {
				if _, known := distance[link]; known {
					continue
				}
				distance[link] = dist
				next = append(next, link)
				if dist >= minRaceDistance {
					found = append(found, link)
				}
			}
		}
		frontier = next
	}
	sort.Strings(found)
	return found
}

// reserve is how many of its loads a draw keeps to check targets with:
// a search that runs out of loads still races to what it found.
func (d *drawing) reserve() int { return min(4, d.play.settings.DrawLoads/2) }

// load reads a page for the draw: once per match, each new page counted
// against the draw's loads.
func (d *drawing) load(title string) (Page, error) {
	if page, ok := d.play.seen[title]; ok {
		return page, nil
	}
	if d.loadsLeft <= 0 {
		d.stopped = fmt.Errorf("%w (%d)", errDrawLoads, d.play.settings.DrawLoads)
		return Page{}, d.stopped
	}
	d.loadsLeft--
	page, err := d.pages.Page(title)
	if errors.Is(err, ErrPagesSilent) {
		d.stopped = err
	}
	if err != nil {
		d.failed = err
		return Page{}, err
	}
	d.play.seen[title] = page
	return page, nil
}

// load navigates to a page once per match.
func (p *racePlay) load(title string) (Page, error) {
	if page, ok := p.seen[title]; ok {
		return page, nil
	}
	page, err := p.pages.Page(title)
	if err != nil {
		return Page{}, err
	}
	p.seen[title] = page
	return page, nil
}

// failBoth ends the match for both players before any move.
func (p *racePlay) failBoth(errorType string, meta map[string]any) {
	p.status = [2]string{RaceError, RaceError}
	p.report("", errorType, meta)
}

// report records one error of the taxonomy; player is "A", "B" or "" for
// the match.
func (p *racePlay) report(player, errorType string, meta map[string]any) {
	entry := map[string]any{"error_type": errorType, "metadata": meta}
	if player != "" {
		entry["player"] = player
	}
	p.errors = append(p.errors, entry)
}

func (p *racePlay) Turn(s Side) Turn {
	i := side(s)
	page := p.seen[p.current[i]]
	state := map[string]any{"current_page": p.current[i], "links": slices.Clone(page.Links), "target_page": p.target,
		"steps_left": p.settings.MaxSteps - p.steps[i], "path": slices.Clone(p.paths[i])}
	if page.Summary != "" {
		state["summary"] = page.Summary
	}
	if page.DroppedLinks > 0 {
		state["links_dropped"] = page.DroppedLinks // past the referee's cap on links per page
	}
	return Turn{Number: p.steps[i] + 1, MoveType: NavigateMove, State: state}
}

// JudgesModelErrors: a model player's declared error ends its race with
// its own status, while the other player races on.
func (p *racePlay) JudgesModelErrors() {}

func (p *racePlay) Asked(s Side) bool { return p.status[side(s)] == "" }

// Move takes any answer: a link not on the page, none, or another tool
// are moves that lose, which Advance judges.
func (p *racePlay) Move(s Side, a Answer) (string, error) {
	a.Choice = strings.TrimSpace(a.Choice)
	p.answers[side(s)] = a
	return a.Choice, nil
}

func (p *racePlay) Advance() {
	for i := range p.status {
		if p.status[i] == "" {
			p.follow(i)
		}
	}
}

// follow plays side i's answer of this turn.
func (p *racePlay) follow(i int) {
	a, from := p.answers[i], p.current[i]
	p.steps[i]++
	tool := a.MoveType
	if tool == "" {
		tool = NavigateMove
	}
	meta := map[string]any{"step": p.steps[i], "current_page": from,
		"tool_call": map[string]any{"name": tool, "arguments": map[string]any{"page": clip(a.Choice)}}}
	player := sideOf(i).String()
	links := p.seen[from].Links
	if status, ok := ModelErrorStatus(a.Error); ok {
		if a.Choice != "" {
			meta["requested_page"], meta["is_target_page"], meta["available_links_count"] = clip(a.Choice), a.Choice == p.target, len(links)
		}
		p.status[i] = status
		p.report(player, a.Error, meta)
		return
	}
	switch {
	case tool != NavigateMove:
		p.lose(i, player, ErrorInvalidTool, meta)
	case a.Choice == "":
		p.lose(i, player, ErrorNoToolCall, meta)
	case !slices.Contains(links, a.Choice):
		meta["requested_page"], meta["is_target_page"], meta["available_links_count"] = clip(a.Choice), a.Choice == p.target, len(links)
		p.lose(i, player, ErrorInvalidLink, meta)
	default:
		p.navigate(i, player, a.Choice, meta)
	}
}

// lose ends side i's race on an invalid move.
func (p *racePlay) lose(i int, player, errorType string, meta map[string]any) {
	p.status[i] = RaceLostInvalidMove
	p.report(player, errorType, meta)
}

// navigate follows a link that is on the page.
func (p *racePlay) navigate(i int, player, link string, meta map[string]any) {
	if _, err := p.load(link); err != nil {
		meta["target_page"], meta["nav_error"], meta["navigation_capability"] = link, err.Error(), p.pages.Capability()
		p.status[i] = RaceError
		p.report(player, ErrorNavigation, meta)
		return
	}
	p.current[i] = link
	p.paths[i] = append(p.paths[i], link)
	switch {
	case link == p.target:
		p.status[i] = RaceWon
	case p.steps[i] >= p.settings.MaxSteps:
		p.status[i] = RaceLostMaxSteps
	}
}

// Progress says where each player is: "A: Paris (step 2) · B: France
// (step 2)".
func (p *racePlay) Progress() string {
	return fmt.Sprintf("A: %s (step %d) · B: %s (step %d)", p.current[0], p.steps[0]+1, p.current[1], p.steps[1]+1)
}

// Forfeit ends side s's race in ERROR when the player failed technically
// (timed out, unreachable, or answered nothing that is a move).
func (p *racePlay) Forfeit(s Side, reason string) {
	i := side(s)
	if p.status[i] != "" {
		return
	}
	p.status[i] = RaceError
	p.report(s.String(), ErrorGeneration, map[string]any{"step": p.steps[i] + 1, "current_page": p.current[i], "reason": clip(reason)})
}

func (p *racePlay) Over() bool { return p.status[0] != "" && p.status[1] != "" }

// Decide: a player who reached the target beats one who did not; both
// reaching it, fewer steps win; equal steps, or neither reaching it, draw.
func (p *racePlay) Decide() Decision {
	won := [2]bool{p.status[0] == RaceWon, p.status[1] == RaceWon}
	winner := NoSide
	switch {
	case won[0] && won[1] && p.steps[0] != p.steps[1]:
		winner = SideA
		if p.steps[1] < p.steps[0] {
			winner = SideB
		}
	case won[0] && !won[1]:
		winner = SideA
	case won[1] && !won[0]:
		winner = SideB
	}
	reason := fmt.Sprintf("from %q to %q: A %s after %d steps, B %s after %d steps", p.start, p.target, p.status[0], p.steps[0], p.status[1], p.steps[1])
	if p.noRace != "" {
		reason = "no race: " + p.noRace
	}
	details := map[string]any{"start_page": p.start, "target_page": p.target, "max_steps": p.settings.MaxSteps,
		"path_A": nonNil(p.paths[0]), "path_B": nonNil(p.paths[1]), "steps_A": p.steps[0], "steps_B": p.steps[1],
		"status_A": p.status[0], "status_B": p.status[1], "errors": nonNilErrors(p.errors)}
	return Decision{Winner: winner, Details: details, Statuses: p.status,
		Step:   fmt.Sprintf("A %s in %d, B %s in %d", p.status[0], p.steps[0], p.status[1], p.steps[1]),
		Reason: reason}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilErrors(e []map[string]any) []map[string]any {
	if e == nil {
		return []map[string]any{}
	}
	return e
}

// clip bounds a player's text kept in a report.
func clip(s string) string {
	if len(s) <= maxReportedChars {
		return s
	}
	return s[:maxReportedChars]
}

// racer is a built-in link-race strategy. greedy follows the link whose
// title shares most words with the target's, never a page it has visited;
// random follows any link. Both take the target when it is a link.
type racer struct {
	name string
	seed int64
}

func (r *racer) Name() string { return r.name }

func (r *racer) Observe(Observation) {}

func (r *racer) Choose(ctx MoveContext) string {
	links, target := StringsOf(ctx.State["links"]), fmt.Sprint(ctx.State["target_page"])
	if len(links) == 0 {
		return ""
	}
	if slices.Contains(links, target) {
		return target
	}
	rng := MatchRand(r.seed, ctx.MatchID, fmt.Sprintf("strategy:%s:%d", ctx.Self, ctx.Turn))
	if r.name == "random" {
		return links[rng.IntN(len(links))]
	}
	visited := StringsOf(ctx.State["path"])
	fresh := slices.DeleteFunc(slices.Clone(links), func(l string) bool { return slices.Contains(visited, l) })
	if len(fresh) == 0 {
		fresh = links
	}
	best, bestScore := []string(nil), -1
	for _, l := range fresh {
		switch score := sharedWords(l, target); {
		case score > bestScore:
			best, bestScore = []string{l}, score
		case score == bestScore:
			best = append(best, l)
		}
	}
	return best[rng.IntN(len(best))]
}

// sharedWords counts the words of a that are words of b, ignoring case.
func sharedWords(a, b string) int {
	words := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(b)) {
		words[w] = true
	}
	n := 0
	for _, w := range strings.Fields(strings.ToLower(a)) {
		if words[w] {
			n++
		}
	}
	return n
}

// StringsOf reads a list of strings from a decoded JSON value or a
// []string.
func StringsOf(v any) []string {
	switch v := v.(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
