package control

import (
	"strconv"
	"strings"
)

// Plural is a count with its noun, as the console and the headless run
// both say it: "1 player", "2 players", "3 matches".
func Plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "ch"):
		return strconv.Itoa(n) + " " + noun + "es"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
