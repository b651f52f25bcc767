package protocol

import (
	"strings"
	"testing"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"P01", "P01"},
		{"Zoë 🎲 名前", "Zoë 🎲 名前"},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"P01\nFAKE: P01 disqualified", `P01\nFAKE: P01 disqualified`},
		{"a\rb\tc\x7f", `a\rb\tc\x7f`},
		{"\u009b31m", `\u009b31m`}, // C1 CSI
		{"evil\u202etxt.exe", `evil\u202etxt.exe`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"\U000e0041tag", `\U000e0041tag`},
	}
	for _, tt := range tests {
		if got := Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMakePrintable(t *testing.T) {
	type row struct {
		Name   string
		Tags   []string
		Extra  map[string]any
		hidden string
	}
	const esc = "\x1b[31m"
	ptr := esc
	doc := &struct {
		Rows []row
		Ptr  *string
		Any  any
	}{
		Rows: []row{{Name: esc, Tags: []string{esc}, Extra: map[string]any{esc: []any{esc, 3.0}}, hidden: esc}},
		Ptr:  &ptr,
		Any:  map[string]any{"k": esc},
	}
	MakePrintable(doc)
	want := `\x1b[31m`
	r := doc.Rows[0]
	if r.Name != want || r.Tags[0] != want || *doc.Ptr != want {
		t.Errorf("strings not escaped: %+v %q", r, *doc.Ptr)
	}
	list, ok := r.Extra[want].([]any)
	if !ok || list[0] != want || len(r.Extra) != 1 {
		t.Errorf("map key or value not escaped: %#v", r.Extra)
	}
	if doc.Any.(map[string]any)["k"] != want {
		t.Errorf("interface not escaped: %#v", doc.Any)
	}
	if r.hidden != esc {
		t.Errorf("unexported field changed: %q", r.hidden)
	}
	for _, s := range []string{r.Name, r.Tags[0], *doc.Ptr} {
		if strings.ContainsRune(s, 0x1b) {
			t.Errorf("%q still holds ESC", s)
		}
	}
}
