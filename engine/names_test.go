package engine

import "testing"

// TestShownNameEscapesMixedScripts: a name that mixes scripts as a
// look-alike does is shown with the letters not of its main script as \u
// escapes, in the standings every reader gets; names of one script, and
// Latin with the CJK scripts of one language, are shown as they are.
func TestShownNameEscapesMixedScripts(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"carol", "carol"},
		{"P01", "P01"},
		{"c\u0430rol", `c\u0430rol`}, // Cyrillic а in a Latin name
		{"\u0420\u0430\u0440\u0430 1", "\u0420\u0430\u0440\u0430 1"}, // one script: the manager compares it with the others by its skeleton
		{"P\u03bfol", `P\u03bfol`},                                   // Greek ο
		{"Иван", "Иван"},                                             // all Cyrillic
		{"Ολγα", "Ολγα"},                                             // all Greek
		{"たろう太郎", "たろう太郎"},                                           // Japanese: kana and Han
		{"Taro 太郎", "Taro 太郎"},                                       // Latin beside Han
		{"김민준", "김민준"},                                               // Korean
		{"Иваn", `\u0418\u0432\u0430n`},                              // a Latin n: Latin is the main script
		{"Иванα", `Иван\u03b1`},                                      // Cyrillic with a Greek α: most letters are Cyrillic
		{"bob\u3164", `bob\u3164`},                                   // a Hangul filler shows as nothing
		{"c\u0430\u0301rol", `c\u0430\u0301rol`},                     // a mark on an escaped letter is escaped with it
		{"Zoë", "Zoë"},                                               // Latin with a combining or precomposed accent
		{"Zoe\u0308", "Zoe\u0308"},
		{"Père-Noël 2", "Père-Noël 2"},
	} {
		if got := ShownName(tt.name); got != tt.want {
			t.Errorf("ShownName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestStandingsShowNamesEscaped: the table, which the console, the web
// page and the files show, holds the shown name.
func TestStandingsShowNamesEscaped(t *testing.T) {
	tbl := NewTable(DefaultScoring())
	tbl.AddPlayer("P01", "carol")
	tbl.AddPlayer("P02", "c\u0430rol")
	tbl.AddPlayer("P03", "Иван")
	want := map[string]string{"P01": "carol", "P02": `c\u0430rol`, "P03": "Иван"}
	for _, r := range tbl.Rows() {
		if r.DisplayName != want[r.PlayerID] {
			t.Errorf("%s shown as %q, want %q", r.PlayerID, r.DisplayName, want[r.PlayerID])
		}
	}
}
