package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRT is a sequential probability ratio test of one player (the
// challenger) against another: H0 "the challenger is elo0 stronger"
// against H1 "it is elo1 stronger", in logistic Elo. The log-likelihood
// ratio is the generalised SPRT on the W/D/L counts with the logistic
// model (fastchess model=logistic, Fishtest's LLR_logistic): for each
// hypothesis the most likely outcome law with the hypothesised mean score,
// then N·Σ p̂·ln(p₁/p₀). Empty outcome classes count 0.001, as fastchess
// and Fishtest do.
//
// With Model pentanomial the test counts the games in their seat-swapped
// pairs (games 1 and 2, 3 and 4, …): each pair scores 0, ½, 1, 1½ or 2,
// and the same GSPRT runs on those five classes, N the pairs. Two games
// that share a start (the seat advantage, a game's opening) are not two
// independent games; counted as a pair, their variance is the pair's, and
// the test needs fewer games for the same error rates (Fishtest and
// fastchess count pairs).
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"` // P(accept H1 | H0)
	Beta  float64 `json:"beta"`  // P(accept H0 | H1)
	// Model is SPRTTrinomial (games; "" in a journal of before) or
	// SPRTPentanomial (pairs of games).
	Model string `json:"model,omitempty"`
}

// The SPRT's models.
const (
	SPRTTrinomial   = "trinomial"
	SPRTPentanomial = "pentanomial"
)

// ParseSPRT reads "elo0=0,elo1=10,alpha=0.05,beta=0.05"; alpha and beta
// default to 0.05, model to pentanomial: an SPRT's games always come in
// seat-swapped pairs (sprtRound alternates the seats), and counted as
// pairs the test's error rates hold where a seat advantage makes the
// games of a pair alike (BenchmarkPentanomialSPRT: the trinomial test
// accepted the wrong hypothesis 0 times in 100 where α was 5 %, the
// pentanomial 5). model=trinomial counts the games one by one. The model
// parsed is written out (String, and the journal's league_started), so a
// journal of before, with no model, still replays as trinomial.
func ParseSPRT(s string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05, Model: SPRTPentanomial}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if key == "model" {
			if value != SPRTTrinomial && value != SPRTPentanomial {
				return SPRT{}, fmt.Errorf("sprt: model %q (want trinomial or pentanomial)", value)
			}
			t.Model = value
			continue
		}
		x, err := strconv.ParseFloat(value, 64)
		if !ok || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return SPRT{}, fmt.Errorf("sprt: %q is not name=number", part)
		}
		switch key {
		case "elo0":
			t.Elo0 = x
		case "elo1":
			t.Elo1 = x
		case "alpha":
			t.Alpha = x
		case "beta":
			t.Beta = x
		default:
			return SPRT{}, fmt.Errorf("sprt: unknown %q (want elo0, elo1, alpha, beta, model)", key)
		}
		seen[key] = true
	}
	switch {
	case !seen["elo0"] || !seen["elo1"]:
		return SPRT{}, fmt.Errorf("sprt: elo0 and elo1 are required")
	case t.Elo0 >= t.Elo1:
		return SPRT{}, fmt.Errorf("sprt: elo0 (%g) must be below elo1 (%g)", t.Elo0, t.Elo1)
	case t.Alpha <= 0 || t.Alpha >= 0.5 || t.Beta <= 0 || t.Beta >= 0.5:
		return SPRT{}, fmt.Errorf("sprt: alpha and beta must be in (0, 0.5)")
	}
	return t, nil
}

// String is the test as ParseSPRT reads it.
func (t SPRT) String() string {
	s := fmt.Sprintf("elo0=%g,elo1=%g,alpha=%g,beta=%g", t.Elo0, t.Elo1, t.Alpha, t.Beta)
	if t.Model != "" {
		s += ",model=" + t.Model
	}
	return s
}

// Bounds are the LLR's bounds: at or below lower H0 is accepted, at or
// above upper H1.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// SPRT verdicts.
const (
	VerdictContinue = "continue"
	VerdictH0       = "H0 accepted"
	VerdictH1       = "H1 accepted"
)

// SPRTStatus is the test after some games, from the challenger's side.
type SPRTStatus struct {
	Test    SPRT    `json:"test"`
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	LLR     float64 `json:"llr"`
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	Verdict string  `json:"verdict"`
	// Pentanomial counts the complete seat-swapped pairs by the
	// challenger's score in them: 0, ½, 1, 1½ and 2 (LL, LD, DD or WL, WD,
	// WW); absent where the games were not counted in pairs.
	Pentanomial *[5]int `json:"pentanomial,omitempty"`
}

// Status evaluates the test on w wins, d draws and l losses.
func (t SPRT) Status(w, d, l int) SPRTStatus {
	return t.status(w, d, l, t.LLR(w, d, l))
}

// StatusPaired evaluates the test on w wins, d draws and l losses that
// came in the pairs pairs counts: by the pairs with Model pentanomial, by
// the games otherwise; the pairs are reported either way.
func (t SPRT) StatusPaired(w, d, l int, pairs [5]int) SPRTStatus {
	llr := t.LLR(w, d, l)
	if t.Model == SPRTPentanomial {
		llr = t.PentanomialLLR(pairs)
	}
	st := t.status(w, d, l, llr)
	st.Pentanomial = &pairs
	return st
}

func (t SPRT) status(w, d, l int, llr float64) SPRTStatus {
	st := SPRTStatus{Test: t, Wins: w, Draws: d, Losses: l, LLR: llr, Verdict: VerdictContinue}
	st.Lower, st.Upper = t.Bounds()
	switch {
	case st.LLR >= st.Upper:
		st.Verdict = VerdictH1
	case st.LLR <= st.Lower:
		st.Verdict = VerdictH0
	}
	return st
}

// LLR is the logistic GSPRT log-likelihood ratio of w wins, d draws and l
// losses; 0 before any game.
func (t SPRT) LLR(w, d, l int) float64 {
	return t.gsprt([]int{l, d, w}, outcomeScores[:])
}

// PentanomialLLR is the logistic GSPRT log-likelihood ratio of pairs of
// games, counted by the challenger's score in the pair (StatusPaired); 0
// before any pair.
func (t SPRT) PentanomialLLR(pairs [5]int) float64 {
	return t.gsprt(pairs[:], pairScores[:])
}

// gsprt is N·Σ p̂·ln(p₁/p₀) over outcome classes of the given scores (as
// fractions of the most a class can score), counts empty classes as
// 0.001.
func (t SPRT) gsprt(counts []int, scores []float64) float64 {
	n, total := 0, 0.0
	freq := make([]float64, len(counts))
	for i, c := range counts {
		n += c
		freq[i] = max(float64(c), 0.001)
		total += freq[i]
	}
	if n == 0 {
		return 0
	}
	for i := range freq {
		freq[i] /= total
	}
	s0, s1 := EloExpected(t.Elo0), EloExpected(t.Elo1)
	p0, p1 := constrainedLaw(freq, scores, s0), constrainedLaw(freq, scores, s1)
	llr := 0.0
	for i := range freq {
		llr += freq[i] * math.Log(p1[i]/p0[i])
	}
	return float64(n) * llr
}

// outcomeScores are the scores of a loss, a draw and a win.
var outcomeScores = [3]float64{0, 0.5, 1}

// pairScores are a pair's scores, 0 to 2, as fractions of 2.
var pairScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// constrainedLaw is the outcome law closest (in likelihood) to the
// observed frequencies whose mean score is s: p_a = p̂_a/(1 + λ(a - s)),
// with λ the root of Σ p̂_a(a - s)/(1 + λ(a - s)) = 0, found by bisection
// on the interval where every p_a stays positive. The sum falls as λ
// grows, so the root is unique.
func constrainedLaw(freq, scores []float64, s float64) []float64 {
	lo, hi := -1/(1-s), 1/s // -1/(a_max - s), -1/(a_min - s)
	f := func(lambda float64) float64 {
		sum := 0.0
		for i, a := range scores {
			sum += freq[i] * (a - s) / (1 + lambda*(a-s))
		}
		return sum
	}
	for range 200 {
		mid := (lo + hi) / 2
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-15*math.Max(1, math.Abs(mid)) {
			break
		}
	}
	lambda := (lo + hi) / 2
	p := make([]float64, len(scores))
	for i, a := range scores {
		p[i] = freq[i] / (1 + lambda*(a-s))
	}
	return p
}
