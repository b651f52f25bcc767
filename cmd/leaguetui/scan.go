package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/report"
	"github.com/leaguetui/leaguetui/league/scan"
	"github.com/leaguetui/leaguetui/league/season"
)

const scanHelp = `leaguetui scan: why each model player's game that was not won was not.

Usage:
  leaguetui scan DATA [--league ID] [--json] [--csv FILE]
  leaguetui scan --season SEASON [--json] [--csv FILE]

DATA is only read. Deterministic scanners read every match file and put
each model player's game that it did not win in one category (loop,
near_miss_link, invalid_link, refusal, tool_misuse, unparseable_answer,
provider_error, timeout, budget_stop, step_limit, outplayed, other), each
finding tied to its match and move (docs/scan.md). It prints a table per
model player and a line per game not won; --json prints one JSON document
instead; --csv FILE also writes every finding to FILE.

Flags:
`

func runScan(_ context.Context, args []string, stdout io.Writer) error {
	fs := newCommandFlagSet("leaguetui scan", scanHelp, stdout)
	league := fs.String("league", "", "scan only the league `id` (default every league of the data folder)")
	seasonDir := fs.String("season", "", "scan every league of the season `folder` instead of a data folder")
	asJSON := fs.Bool("json", false, "print the scan as one JSON document instead of the table")
	csvFile := fs.String("csv", "", "also write every finding, a row each, to `file`")
	data, err := parseFolder(fs, args)
	if err != nil {
		return err
	}
	refs, err := leaguesToRead(data, *league, *seasonDir, fs.Name())
	if err != nil {
		return err
	}
	labels, files, problems, err := readLeagues(refs)
	if err != nil {
		return err
	}
	r := scan.NewReport(labels, files, problems)
	if *csvFile != "" {
		if err := writeScanCSV(*csvFile, r); err != nil {
			return err
		}
	}
	if *asJSON {
		return r.WriteJSON(stdout)
	}
	return printScan(stdout, r)
}

// printScan prints the table, the games and the problems.
func printScan(w io.Writer, r *scan.Report) error {
	if err := r.WriteTable(w); err != nil {
		return err
	}
	if len(r.Games) > 0 {
		fmt.Fprintln(w)
	}
	if err := r.WriteGames(w); err != nil {
		return err
	}
	for _, p := range r.Problems {
		fmt.Fprintln(w, "leaguetui scan: note:", protocol.Printable(p))
	}
	return nil
}

func writeScanCSV(path string, r *scan.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = r.WriteCSV(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--csv %s: %w", path, err)
	}
	return nil
}

// leagueRef is one league to read: its data folder and its id.
type leagueRef struct{ dataDir, id string }

// leaguesToRead are the leagues a scan or an export reads: those of a
// season, the one named, or every league of the data folder.
func leaguesToRead(data, league, seasonDir, command string) ([]leagueRef, error) {
	switch {
	case seasonDir != "" && data != "":
		return nil, &usageError{"give a data folder or --season, not both"}
	case seasonDir != "" && league != "":
		return nil, &usageError{"--league names a league of a data folder, not of a season"}
	case seasonDir != "":
		s, err := season.Read(seasonDir)
		if err != nil {
			return nil, err
		}
		if len(s.Leagues) == 0 {
			return nil, fmt.Errorf("season %s holds no league", seasonDir)
		}
		var refs []leagueRef
		for _, l := range s.Leagues {
			refs = append(refs, leagueRef{l.DataDir, l.LeagueID})
		}
		return refs, nil
	case data == "":
		return nil, &usageError{"name the data folder: " + command + " DATA"}
	}
	ids, err := report.Leagues(data)
	switch {
	case err != nil:
		return nil, err
	case league != "" && !slices.Contains(ids, league):
		return nil, fmt.Errorf("%s holds no league %q (it holds: %s)", data, league, strings.Join(ids, ", "))
	case league != "":
		ids = []string{league}
	}
	var refs []leagueRef
	for _, id := range ids {
		refs = append(refs, leagueRef{data, id})
	}
	return refs, nil
}

// readLeagues reads each league's match files under a label of its own:
// its id, with its data folder beside it when two leagues share the id.
func readLeagues(refs []leagueRef) (labels []string, files map[string][]*protocol.MatchFile, problems []string, err error) {
	files = map[string][]*protocol.MatchFile{}
	for _, ref := range refs {
		label := ref.id
		if _, taken := files[label]; taken {
			label = ref.id + " (" + ref.dataDir + ")"
		}
		f, p, err := scan.ReadLeague(ref.dataDir, ref.id)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("league %s of %s: %w", ref.id, ref.dataDir, err)
		}
		labels, files[label], problems = append(labels, label), f, append(problems, p...)
	}
	return labels, files, problems, nil
}
