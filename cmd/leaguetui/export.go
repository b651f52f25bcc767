package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/report"
	"github.com/leaguetui/leaguetui/league/scan"
)

const exportHelp = `leaguetui export: a data folder's trajectories or results, for elsewhere.

Usage:
  leaguetui export DATA --format jsonl [--league ID] [--out FILE]
  leaguetui export --season SEASON --format jsonl [--out FILE]
  leaguetui export DATA --format csv [--league ID] [--out DIR]

DATA is only read. jsonl: one record per model move (the prompt, the
reply, the legal moves, the move chosen, the game's outcome for its player
and the player's model block with its settings; docs/export.md), to FILE or
the standard output. csv: the report's exports (standings.csv,
crosstable.csv, matches.csv, results.jsonl) into DIR.

Flags:
`

func runExport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newCommandFlagSet("leaguetui export", exportHelp, stdout)
	format := fs.String("format", "", "what to export: `jsonl` (every model move) or csv (the report's exports)")
	out := fs.String("out", "", "jsonl: the `path` of the file (default the standard output); csv: the folder (default exports-LEAGUE)")
	league := fs.String("league", "", "the league `id`, when the data folder holds several (jsonl without it: all of them)")
	seasonDir := fs.String("season", "", "jsonl: export every league of the season `folder` instead of a data folder")
	data, err := parseFolder(fs, args)
	if err != nil {
		return err
	}
	switch *format {
	case "jsonl":
		return exportMoves(data, *league, *seasonDir, *out, fs.Name(), stdout, stderr)
	case "csv":
		if *seasonDir != "" {
			return &usageError{"--format csv exports one league: for a season, see leaguetui report --season"}
		}
		return exportCSV(data, *league, *out, stdout)
	}
	return &usageError{fmt.Sprintf("--format %q: want jsonl or csv", *format)}
}

// exportMoves writes every model move of the leagues as JSON lines.
func exportMoves(data, league, seasonDir, out, command string, stdout, stderr io.Writer) error {
	refs, err := leaguesToRead(data, league, seasonDir, command)
	if err != nil {
		return err
	}
	labels, files, problems, err := readLeagues(refs)
	if err != nil {
		return err
	}
	var records []scan.MoveRecord
	for _, label := range labels {
		records = append(records, scan.Records(files[label])...)
	}
	for _, p := range problems {
		fmt.Fprintln(stderr, "leaguetui export: note:", protocol.Printable(p))
	}
	if out == "" {
		return scan.WriteJSONL(stdout, records)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	err = scan.WriteJSONL(f, records)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--out %s: %w", out, err)
	}
	fmt.Fprintf(stdout, "leaguetui export: %d model moves of %d leagues: %s\n", len(records), len(labels), out)
	return nil
}

// exportCSV writes the report's exports of one league into out.
func exportCSV(data, league, out string, stdout io.Writer) error {
	if data == "" {
		return &usageError{"name the data folder: leaguetui export DATA"}
	}
	l, err := report.Load(data, league)
	if err != nil {
		return err
	}
	if out == "" {
		out = "exports-" + l.LeagueID
	}
	if err := l.WriteExports(out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "leaguetui export: league %s, %d of %d matches played: %s\n", l.LeagueID, l.Played(), len(l.Matches), out)
	return nil
}
