package scan

import (
	"strings"
	"unicode"
)

// nearest is the link asked nearly names, if one: the same title but for
// case, spaces and punctuation, or a title of nearMissShortTitleRune
// runes or more within nearMissMaxDistance edits (one for a shorter one),
// or one that holds the other whole. The first such link of the page's
// order wins, so the same files give the same finding.
func nearest(asked string, links []string) (string, bool) {
	a := fold(asked)
	if a == "" {
		return "", false
	}
	for _, l := range links {
		b := fold(l)
		if b == "" {
			continue
		}
		limit := nearMissMaxDistance
		if min(len([]rune(a)), len([]rune(b))) < nearMissShortTitleRune {
			limit = 1
		}
		contained := min(len(a), len(b)) >= nearMissShortTitleRune && (strings.Contains(a, b) || strings.Contains(b, a))
		if a == b || contained || editDistance(a, b, limit) <= limit {
			return l, true
		}
	}
	return "", false
}

// fold keeps a title's letters and digits, in lower case, at most 256 of
// them: a hostile title cannot make the comparison long.
func fold(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == 256 {
			break
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
			n++
		}
	}
	return b.String()
}

// editDistance is the Levenshtein distance of a and b in runes, or
// limit+1 as soon as it must pass limit.
func editDistance(a, b string, limit int) int {
	x, y := []rune(a), []rune(b)
	if d := len(x) - len(y); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur := make([]int, len(y)+1)
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev = cur
	}
	return prev[len(y)]
}
