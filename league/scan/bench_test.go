package scan_test

import (
	"io"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/scan"
)

// BenchmarkScanAndExport scans and exports the hand-built games of every
// category, repeated into a league of 1,200 match files, and prints the
// match files it goes through a second.
func BenchmarkScanAndExport(b *testing.B) {
	var files []*protocol.MatchFile
	for range 100 {
		for _, c := range cases() {
			files = append(files, c.game.file(b))
		}
	}
	league := map[string][]*protocol.MatchFile{"league_test": files}
	b.ResetTimer()
	for b.Loop() {
		r := scan.NewReport([]string{"league_test"}, league, nil)
		if len(r.Games) != len(files) {
			b.Fatalf("%d games not won of %d", len(r.Games), len(files))
		}
		if err := scan.WriteJSONL(io.Discard, scan.Records(files)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
}
