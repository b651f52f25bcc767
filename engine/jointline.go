package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Described is the joint fit in a sentence, as the season's table and a
// league's report give it; "" without a fit.
func (j JointFit) Described() string {
	if !j.Known {
		return ""
	}
	line := fmt.Sprintf("fitted with the ratings over %d games: the first seat %s ± %s Elo", j.Games, signedFixed(j.Seat.Elo), Fixed(j.Seat.CI95, 0))
	if j.Draw.Known {
		line += fmt.Sprintf("; draw parameter ν %s (95%%: %s to %s), two equal players draw %s%%", Fixed(j.Draw.Nu, 2), Fixed(j.Draw.Low, 2),
			Fixed(j.Draw.High, 2), Fixed(100*j.Draw.EqualDraw, 0))
	}
	return line
}

// Fixed is x with prec decimals, never "-0" (nor "-0.00").
func Fixed(x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return s
}

// signedFixed is x to the whole number with its sign, never -0.
func signedFixed(x float64) string {
	s := Fixed(x, 0)
	if s != "0" && !strings.HasPrefix(s, "-") {
		return "+" + s
	}
	return s
}
