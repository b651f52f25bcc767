// Package pages is the page graph a link race runs on and the MCP page
// server that serves it (`leaguetui pages`): a SQLite file in the schema of
// the WikiRace Arena Simple-Wikipedia snapshot, a JSONL file, or a graph
// generated from a seed for offline play, tests and benchmarks.
package pages

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/leaguetui/leaguetui/engine"
)

// Graph is a set of pages by title.
type Graph struct {
	pages  map[string]engine.Page
	titles []string // sorted
}

// NewGraph makes a graph of pages; a later page of the same title wins.
// Links to pages the graph lacks are kept: following one fails, as it does
// on a live server.
func NewGraph(pages []engine.Page) *Graph {
	g := &Graph{pages: make(map[string]engine.Page, len(pages))}
	for _, p := range pages {
		g.pages[p.Title] = p
	}
	for t := range g.pages {
		g.titles = append(g.titles, t)
	}
	sort.Strings(g.titles)
	return g
}

// Titles lists the pages, sorted.
func (g *Graph) Titles() []string { return g.titles }

// Page returns one page.
func (g *Graph) Page(title string) (engine.Page, bool) {
	p, ok := g.pages[title]
	return p, ok
}

// Load reads a graph from path: SQLite (.db, .sqlite, .sqlite3) in the
// WikiRace schema, otherwise JSONL.
func Load(path string) (*Graph, error) {
	switch strings.ToLower(path[strings.LastIndex(path, ".")+1:]) {
	case "db", "sqlite", "sqlite3":
		return LoadSQLite(path)
	}
	return LoadJSONL(path)
}

// jsonlPage is one line of a JSONL graph.
type jsonlPage struct {
	Title   string   `json:"title"`
	Links   []string `json:"links"`
	Summary string   `json:"summary"`
}

// maxLine bounds one page's line in a JSONL graph.
const maxLine = 16 << 20

// LoadJSONL reads one page a line: {"title": …, "links": […], "summary": …}.
func LoadJSONL(path string) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("page graph: %w", err)
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 64<<10), maxLine)
	var pages []engine.Page
	for n := 1; scanner.Scan(); n++ {
		line := strings.TrimSpace(scanner.Text())
		if line == "" {
			continue
		}
		var p jsonlPage
		if err := json.Unmarshal([]byte(line), &p); err != nil || p.Title == "" {
			return nil, fmt.Errorf("page graph %s line %d: want {\"title\", \"links\", \"summary\"}: %v", path, n, err)
		}
		pages = append(pages, engine.Page{Title: p.Title, Links: p.Links, Summary: p.Summary})
	}
	if err := scanner.Err(); err != nil {
		return nil, fmt.Errorf("page graph %s: %w", path, err)
	}
	return nonEmpty(path, NewGraph(pages))
}

func nonEmpty(path string, g *Graph) (*Graph, error) {
	if len(g.titles) == 0 {
		return nil, fmt.Errorf("page graph %s has no pages", path)
	}
	return g, nil
}

// words make the titles of a generated graph: two of them a title, so
// pages share words and a greedy racer has something to go by.
var words = []string{"River", "Castle", "Garden", "Harbor", "Mountain", "Forest", "Library", "Market", "Bridge",
	"Tower", "Island", "Valley", "Desert", "Canyon", "Meadow", "Temple", "Station", "Lighthouse", "Orchard",
	"Glacier", "Volcano", "Village", "Museum", "Theatre", "Cathedral", "Fortress", "Lagoon", "Prairie", "Quarry",
	"Reef"}

// Generate makes a graph of n pages (at most len(words)²) from seed: each
// page links to a few pages that share a word with it and a few at random.
func Generate(seed int64, n int) *Graph {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x70616765))
	var titles []string
	for _, a := range words {
		for _, b := range words {
			if a != b {
				titles = append(titles, a+" "+b)
			}
		}
	}
	rng.Shuffle(len(titles), func(i, j int) { titles[i], titles[j] = titles[j], titles[i] })
	titles = titles[:min(max(n, 2), len(titles))]
	pages := make([]engine.Page, len(titles))
	for i, title := range titles {
		pages[i] = engine.Page{Title: title, Links: generatedLinks(rng, titles, i),
			Summary: fmt.Sprintf("%s is page %d of a graph generated from seed %d.", title, i+1, seed)}
	}
	return NewGraph(pages)
}

// generatedLinks picks page i's links: two that share a word with it, three
// at random, never itself.
func generatedLinks(rng *rand.Rand, titles []string, i int) []string {
	first := strings.Fields(titles[i])
	var related []string
	for j, t := range titles {
		if j != i && slices.ContainsFunc(strings.Fields(t), func(w string) bool { return slices.Contains(first, w) }) {
			related = append(related, t)
		}
	}
	var links []string
	add := func(t string) {
		if t != titles[i] && !slices.Contains(links, t) {
			links = append(links, t)
		}
	}
	for k := 0; k < 2 && len(related) > 0; k++ {
		add(related[rng.IntN(len(related))])
	}
	for k := 0; k < 3; k++ {
		add(titles[rng.IntN(len(titles))])
	}
	return links
}
