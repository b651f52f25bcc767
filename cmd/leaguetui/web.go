package main

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/league/web"
)

const webHelp = `leaguetui web: serve the live web view of a running manager, for spectators.

Usage:
  leaguetui web --attach URL [--addr HOST:PORT]

The page follows the league through server-sent events from the manager's
journaled feed; it is read-only and needs no admin token (docs/web.md).

Flags:
`

func runWeb(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, cf := newFlagSet("leaguetui web", webHelp, stdout)
	attach := fs.String("attach", "", "the running manager's `URL` (e.g. http://HOST:8000)")
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to serve the page on (port 0 takes a free one)")
	if _, err := parse(fs, cf, args); err != nil {
		return err
	}
	if *attach == "" {
		return &usageError{"leaguetui web needs --attach URL, the manager to show"}
	}
	if err := cmp.Or(checkManagerURL("attach", *attach), checkListenFlag("addr", *addr)); err != nil {
		return err
	}
	url, err := web.New(*attach).Start(ctx, *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "leaguetui web: the league of %s, live at %s\n", *attach, url)
	fmt.Fprintln(stdout, node.ReadyListening+url)
	<-ctx.Done()
	return nil
}

// webFlagUsage is --web's, on the console and --no-ui.
const webFlagUsage = "also serve the live web view for spectators on `address` (HOST:PORT; port 0 takes a free one): read-only, see docs/web.md"
