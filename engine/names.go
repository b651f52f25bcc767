package engine

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ShownName is a display name as the league shows it, in the standings
// rows every reader of the league gets (the console, --no-ui, the web
// page, standings.json): as it is, unless it mixes scripts the way a
// look-alike does, a Latin name with a Cyrillic а or a Greek ο in it. Such
// a name is shown with every letter not of its main script (Latin when it
// has Latin letters, else the script most of its letters are of) as a \u
// escape, "c\u0430rol", so that it never reads as the name it imitates.
// The mixes TR39's highly restrictive profile allows are not escaped:
// Latin with the Han, kana, Hangul or Bopomofo of Japanese, Korean or
// Chinese names. Neither are names of one script (Иван, たろう): only
// mixes. Characters that show as nothing (default-ignorable: Hangul
// fillers, variation selectors) are escaped wherever they are. Names come
// printable (protocol.CheckRegistration refuses control and format
// characters); the manager refuses a name that looks like another
// agent's or like an id (agents/manager/names.go), so this is for what
// it lets through: a mixed name that imitates no one there.
func ShownName(name string) string {
	plain := true
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	main, mixed := mainScript(name)
	var b strings.Builder
	escaped := false // the last rune was: a combining mark after it is too
	changed := false
	for _, r := range name {
		script := scriptOf(r)
		escape := ignorable(r) ||
			(mixed && script != main && script != "Common" && (script != "Inherited" || escaped) && !cjkBeside(main, script))
		if escape {
			if r <= 0xFFFF {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				fmt.Fprintf(&b, `\U%08x`, r)
			}
			changed = true
		} else {
			b.WriteRune(r)
		}
		escaped = escape
	}
	if !changed {
		return name
	}
	return b.String()
}

// mainScript is the script a name is written in (Latin when it has a
// Latin letter, else the script of most of its letters, the first seen of
// those tied), and whether the name mixes it with another that TR39's
// highly restrictive profile does not allow beside it.
func mainScript(name string) (main string, mixed bool) {
	counts := map[string]int{}
	var order []string
	for _, r := range name {
		script := scriptOf(r)
		if script == "Common" || script == "Inherited" {
			continue
		}
		if counts[script] == 0 {
			order = append(order, script)
		}
		counts[script]++
	}
	if len(order) <= 1 {
		return "", false
	}
	if counts["Latin"] > 0 {
		main = "Latin"
	} else {
		for _, s := range order {
			if counts[s] > counts[main] {
				main = s
			}
		}
	}
	for _, s := range order {
		if s != main && !cjkBeside(main, s) {
			return main, true
		}
	}
	return main, false
}

// cjkBeside says a letter of script may stand beside a name of script
// main without a mix: Latin and the CJK scripts with each other.
func cjkBeside(main, script string) bool {
	return (main == "Latin" || cjkScripts[main]) && cjkScripts[script]
}

var cjkScripts = map[string]bool{"Han": true, "Hiragana": true, "Katakana": true, "Hangul": true, "Bopomofo": true}

// commonScripts are tried first: nearly every letter of a name is of one.
var commonScripts = []string{"Latin", "Common", "Inherited", "Cyrillic", "Greek", "Han", "Hiragana", "Katakana", "Hangul"}

// scriptOf is the name of r's Unicode script ("Latin", "Cyrillic", "Common").
func scriptOf(r rune) string {
	for _, name := range commonScripts {
		if unicode.Is(unicode.Scripts[name], r) {
			return name
		}
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return "Unknown"
}

// ignorable says r is default-ignorable: it shows as nothing.
func ignorable(r rune) bool {
	return unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Cf)
}
