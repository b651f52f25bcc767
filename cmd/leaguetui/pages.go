package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/pages"
)

// generatedPages is how many pages the graph generated from a seed has.
const generatedPages = 300

func runPages(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, cf := newFlagSet("leaguetui pages", "leaguetui pages: serve a page graph to link-race referees over MCP "+
		"(tools navigate(page) and list_pages()).\n\nFlags:\n", stdout)
	port := fs.Int("port", 0, "port to listen on (0 takes a free one)")
	seed := fs.Int64("seed", 0, "seed of the generated graph, when --pages names no file")
	cfg, err := parse(fs, cf, args)
	if err != nil {
		return err
	}
	if err := cmp.Or(checkPort(*port), checkPageGraph(cf, cfg)); err != nil {
		return err
	}
	g := pages.Generate(*seed, generatedPages)
	if cfg.Pages.File != "" {
		if g, err = pages.Load(cfg.Pages.File); err != nil {
			return err
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return pages.Serve(ctx, g, cfg.Network.Host, *port, cfg.Timeouts.Generic, log, func(url string) {
		fmt.Fprintf(stderr, "leaguetui pages: %d pages at %s\n", len(g.Titles()), url)
		fmt.Fprintln(stdout, node.ReadyListening+url)
	})
}
