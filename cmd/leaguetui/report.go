package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/leaguetui/leaguetui/league/report"
	"github.com/leaguetui/leaguetui/league/season"
	"github.com/leaguetui/leaguetui/tui"
)

const reportHelp = `leaguetui report: turn a data folder into an HTML report and CSV exports.

Usage:
  leaguetui report DATA [--out DIR] [--league ID]
  leaguetui report --season SEASON [--out DIR]

DATA is only read, so an archived, read-only or copied folder works. DIR gets
index.html (the league, then every match under #match-ID; no network assets),
standings.csv, crosstable.csv, matches.csv and results.jsonl (docs/report.md).
With --season, DIR gets the season's page (its table, each player's rating
after each league with its interval as a band, links to every league's
report, written under DIR/leagues), season_standings.csv and
rating_history.csv (docs/seasons.md).

Flags:
`

func runReport(_ context.Context, args []string, stdout io.Writer) error {
	fs := newCommandFlagSet("leaguetui report", reportHelp, stdout)
	out := fs.String("out", "", "`folder` to write the report and exports into (default report-LEAGUE in the current folder)")
	league := fs.String("league", "", "the league `id` to report, when the data folder holds several")
	seasonDir := fs.String("season", "", "report the season `folder` (leagues added with --season) instead of a data folder")
	data, err := parseFolder(fs, args)
	switch {
	case err != nil:
		return err
	case *seasonDir != "" && data != "":
		return &usageError{"give a data folder or --season, not both"}
	case *seasonDir != "":
		return reportSeason(*seasonDir, *out, stdout)
	case data == "":
		return &usageError{"name the data folder: " + fs.Name() + " DATA"}
	}
	l, err := report.Load(data, *league)
	if err != nil {
		return err
	}
	if *out == "" {
		*out = "report-" + l.LeagueID
	}
	if err := l.Write(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "leaguetui report: league %s, %d of %d matches played: %s\n", l.LeagueID, l.Played(), len(l.Matches),
		filepath.Join(*out, report.HTMLFile))
	for _, p := range l.Problems {
		fmt.Fprintln(stdout, "leaguetui report: note:", p)
	}
	return nil
}

// parseWithFolder parses a command line of one folder and flags, in either
// order, and returns the folder.
func parseWithFolder(fs *flag.FlagSet, args []string) (string, error) {
	folder, err := parseFolder(fs, args)
	if err == nil && folder == "" {
		return "", &usageError{"name the data folder: " + fs.Name() + " DATA"}
	}
	return folder, err
}

// parseFolder is parseWithFolder for a command whose folder may be
// missing: "" then.
func parseFolder(fs *flag.FlagSet, args []string) (string, error) {
	var folder string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		folder, args = args[0], args[1:]
	}
	if err := parseArgs(fs, args); err != nil {
		return "", err
	}
	rest := fs.Args()
	if folder == "" && len(rest) > 0 {
		folder, rest = rest[0], rest[1:]
		if err := fs.Parse(rest); err != nil {
			return "", badCommandLine(fs, err)
		}
		rest = fs.Args()
	}
	if len(rest) > 0 {
		return "", &usageError{fmt.Sprintf("unexpected argument %q", rest[0])}
	}
	return folder, nil
}

// reportSeason writes a season's page and CSV files into out.
func reportSeason(dir, out string, stdout io.Writer) error {
	s, err := season.Read(dir)
	if err != nil {
		return err
	}
	if len(s.Leagues) == 0 {
		return fmt.Errorf("season %s holds no league: add one with --season %s", dir, dir)
	}
	if out == "" {
		out = "report-season"
	}
	if err := s.WritePage(out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "leaguetui report: season %s, %d leagues, %d games: %s\n", dir, len(s.Leagues), s.Games(),
		filepath.Join(out, season.PageFile))
	return nil
}

const replayHelp = `leaguetui replay: step through a finished league's matches in the console.

Usage:
  leaguetui replay DATA [--league ID]

DATA is only read (an archived or read-only folder works). Every match is
there, in schedule order: n or → the next, p or ← the one before, g the
first, G the last, j/k scroll the transcript, q quits.

Flags:
`

func runReplay(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newCommandFlagSet("leaguetui replay", replayHelp, stdout)
	league := fs.String("league", "", "the league `id` to replay, when the data folder holds several")
	data, err := parseWithFolder(fs, args)
	if err != nil {
		return err
	}
	l, err := report.Load(data, *league)
	if err != nil {
		return err
	}
	if err := tui.CheckTerminal(os.Stdin, os.Stdout, "run leaguetui report "+data+" for every match as an HTML page"); err != nil {
		return err
	}
	return tui.RunReplay(ctx, l)
}
