package manager

import (
	"strings"
	"unicode"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// Display names are compared as they look, not only as they are spelt: a
// name written with look-alike letters (a Cyrillic Р in "Р01", a Cyrillic
// а in "cаrol") reads as the name it imitates in the standings. Two names
// look alike when their confusable skeletons agree (Unicode TR39, section
// 4: NFD, each character mapped to its prototype by the confusables.txt
// table, NFD again; github.com/mtibben/confusables, whose table is TR39's
// of Unicode 13). Before the skeleton a name is put in NFKC (fullwidth and
// mathematical letters are their plain ones there, as TR39's identifier
// profile has it) and loses its default-ignorable characters (which show
// as nothing; TR39 drops them from skeletons since Unicode 15.1). The
// comparison ignores case as the older rules did (any case of "P07" is an
// id's form): names look alike when the skeletons of the names as written,
// lower-cased or upper-cased agree ("НАL" with a Cyrillic Н is "HAL" in
// capitals only).

// nameKey is what names are compared by: the skeletons of a name as
// written, lower-cased and upper-cased.
type nameKey [3]string

// keyOf is name's nameKey.
func keyOf(name string) nameKey {
	plain := strings.Map(dropIgnorable, norm.NFKC.String(name))
	return nameKey{skeleton(plain), skeleton(strings.ToLower(plain)), skeleton(strings.ToUpper(plain))}
}

// like says two names' keys make them look alike.
func (k nameKey) like(o nameKey) bool { return k[0] == o[0] || k[1] == o[1] || k[2] == o[2] }

// lookAlike says names a and b look alike (see keyOf); the same name in
// another case does too.
func lookAlike(a, b string) bool { return strings.EqualFold(a, b) || keyOf(a).like(keyOf(b)) }

// skeleton is TR39's skeleton of s, without its default-ignorable
// characters.
func skeleton(s string) string { return strings.Map(dropIgnorable, confusables.Skeleton(s)) }

// dropIgnorable drops default-ignorable code points (strings.Map drops a
// rune mapped to -1): the variation selectors, the Hangul fillers, the
// combining grapheme joiner and the format characters.
func dropIgnorable(r rune) rune {
	if unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Cf) {
		return -1
	}
	return r
}

// idPrefixes are the prefixes of agents' ids, in the cases an id's form
// allows; idDigits the skeletons of the ten digits ("0" is "O", "1" is
// "l"), by the digit each stands for.
var (
	idPrefixes = []string{"P", "REF", "p", "ref"}
	idDigits   = func() map[string]byte {
		out := make(map[string]byte, 10)
		for d := byte('0'); d <= '9'; d++ {
			out[skeleton(string(d))] = d
		}
		return out
	}()
)

// idReading is the agent id a name reads as (P07, REF02), when its
// skeleton, in capitals or in small letters, is that of an id's form: a
// prefix and two to four digits, each letter or digit perhaps a look-alike
// ("Р01" with a Cyrillic Р, "PO1" with the letter O, "P0l"); "" when it
// reads as none.
func idReading(name string) string {
	key := keyOf(name)
	for _, s := range key[1:] {
		for _, prefix := range idPrefixes {
			rest, ok := strings.CutPrefix(s, skeleton(prefix))
			if !ok {
				continue
			}
			if digits := readDigits(rest); len(digits) >= 2 && len(digits) <= 4 {
				return strings.ToUpper(prefix) + digits
			}
		}
	}
	return ""
}

// readDigits reads s as a run of digits' skeletons, "" when it is not one.
func readDigits(s string) string {
	var out []byte
	for s != "" && len(out) <= 4 {
		found := false
		for skel, d := range idDigits {
			if rest, ok := strings.CutPrefix(s, skel); ok && skel != "" {
				out, s, found = append(out, d), rest, true
				break
			}
		}
		if !found {
			return ""
		}
	}
	if s != "" {
		return ""
	}
	return string(out)
}

// nameKeyOf is name's key, memoized: every registration compares its
// name with every registered agent's. Call with m.mu held.
func (m *Manager) nameKeyOf(name string) nameKey {
	key, ok := m.nameKeys[name]
	if !ok {
		key = keyOf(name)
		m.nameKeys[name] = key
	}
	return key
}

// trimNameKeys forgets the memoized keys once they are many more than the
// agents (names agents went by before they registered again under
// others), so that they stay as many as the agents. Call with m.mu held.
func (m *Manager) trimNameKeys(agents int) {
	if m.nameKeys == nil || len(m.nameKeys) > 2*agents+64 {
		m.nameKeys = map[string]nameKey{}
	}
}
