package manager

import (
	"testing"
	"time"
)

// Names are compared as they look: by TR39 skeletons of the name in NFKC,
// without what shows as nothing, in any case.
func TestLookAlikeNames(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		alike bool
	}{
		{"carol", "c\u0430rol", true},  // Cyrillic а
		{"carol", "CAROL", true},       // case, as before
		{"carol", "car0l", true},       // a zero for an o, in capitals
		{"HAL", "\u041d\u0410L", true}, // Cyrillic Н and А: alike in capitals
		{"carol", "carol\u3164", true}, // a Hangul filler shows as nothing
		{"carol", "ｃａｒｏｌ", true},       // fullwidth
		{"mary", "rnary", true},        // r and n side by side
		{"carol", "caro", false},
		{"Иван", "Ivan", false}, // all Cyrillic, and not like the Latin one
		{"Иван", "Иван", true},
		{"たろう", "たろう太郎", false},
		{"alpha", "gamma", false},
		{"stranger-01", "stranger-10", false},
	} {
		if got := lookAlike(tt.a, tt.b); got != tt.alike {
			t.Errorf("lookAlike(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.alike)
		}
	}
}

// A name reads as an agent id when its skeleton is an id's, whatever
// letters and digits spell it.
func TestIDReading(t *testing.T) {
	for _, tt := range []struct{ name, id string }{
		{"P01", "P01"},
		{"p07", "P07"},
		{"\u042001", "P01"}, // Cyrillic Р
		{"\u044001", "P01"}, // Cyrillic р
		{"\u03a101", "P01"}, // Greek Ρ
		{"PO1", "P01"},      // the letter O
		{"P0l", "P01"},      // a small L
		{"ＰＯ１", "P01"},      // fullwidth
		{"REF03", "REF03"},
		{"R\u0415F03", "REF03"}, // Cyrillic Е
		{"ref1234", "REF1234"},
		{"P1", ""},     // one digit is no id
		{"P12345", ""}, // nor five
		{"P100x", ""},
		{"Pool", ""},
		{"Иван", ""},
		{"", ""},
	} {
		if got := idReading(tt.name); got != tt.id {
			t.Errorf("idReading(%q) = %q, want %q", tt.name, got, tt.id)
		}
	}
}

// Refused reports are told at most once an interval, with the count of
// those refused since.
func TestRefusedReportNotices(t *testing.T) {
	var n refusalNotices
	now := time.Now()
	if ok, untold := n.take(now); !ok || untold != 0 {
		t.Fatalf("first refusal: told %v, %d untold; want told", ok, untold)
	}
	for i := range 1000 {
		if ok, _ := n.take(now.Add(time.Duration(i) * time.Millisecond)); ok {
			t.Fatalf("refusal %d within the interval told", i)
		}
	}
	if ok, untold := n.take(now.Add(reportNoticeInterval)); !ok || untold != 1000 {
		t.Errorf("after the interval: told %v, %d untold; want told, with the 1000 before", ok, untold)
	}
}

// A peer's words in a notice are printable and bounded.
func TestClipReason(t *testing.T) {
	long := ""
	for range 100 {
		long += "é"
	}
	if got := clipReason(long); len(got) > maxReasonShown+len("…") || got[len(got)-len("…"):] != "…" {
		t.Errorf("clipReason of %d bytes = %d bytes %q", len(long), len(got), got)
	}
	if got := clipReason("a\x1b[2Jb"); got != `a\x1b[2Jb` {
		t.Errorf("clipReason of an escape sequence = %q", got)
	}
}
