package llm_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// benchLimit is the fake's limit in BenchmarkRateLimitedLeague, requests
// a second: the measurement.
const benchLimit = 10

// BenchmarkRateLimitedLeague plays the measurement, a league of 8
// model players (separate processes, one key) under 4 referees, two games
// a pair (112 moves), against
// the fake provider, and prints its wall time against the bound the limit
// sets (the requests answered divided by the limit) and the share of its
// requests answered 429:
//
//   - unlimited: no limit anywhere, what a league takes without one;
//   - ceiling: the fake limited, --llm-rpm its limit;
//   - headers: the fake limited and stating it (x-ratelimit-*), nothing
//     configured; headers-anthropic the same through the Anthropic API
//     (anthropic-ratelimit-*);
//   - 429s: the fake limited and stating nothing, nothing configured:
//     what the players learn from the 429s alone.
//
// go test -run '^$' -bench RateLimitedLeague -benchtime 1x ./e2e/llm
func BenchmarkRateLimitedLeague(b *testing.B) {
	cases := []struct {
		name      string
		limit     float64
		headers   bool
		anthropic bool
		args      []string
	}{
		{"unlimited", 0, false, false, nil},
		{"ceiling", benchLimit, false, false, []string{"--llm-rpm", fmt.Sprint(benchLimit * 60)}},
		{"headers", benchLimit, true, false, nil},
		{"headers-anthropic", benchLimit, true, true, nil},
		{"429s", benchLimit, false, false, nil},
	}
	leaguetest.Binary(b) // built before any league is timed
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.Setenv("OPENAI_API_KEY", testKey)
			b.Setenv("ANTHROPIC_API_KEY", testKey)
			for b.Loop() {
				fake := fakellm.Start(fakellm.Good)
				if c.limit > 0 {
					fake.Limit(c.limit, c.headers)
				}
				args := append([]string{"--games-per-pair", "2"}, c.args...)
				if c.anthropic { // the later flags win
					args = append(args, "--llm-provider", "anthropic", "--llm-base-url", fake.URL)
				}
				l := runLimitedLeague(b, fake, 8, 4, args...)
				fake.Close()
				reportLimitedLeague(b, l, c.limit)
			}
		})
	}
}

// reportLimitedLeague prints and reports a league's figures: its wall
// time, the span of its requests, the bound the limit sets, the share of
// 429s and the moves lost.
func reportLimitedLeague(b *testing.B, l limitedLeague, limit float64) {
	requests := l.fake.Requests()
	refused := l.fake.Refused()
	answered := len(requests) - refused
	span, api := time.Duration(0), "no"
	if len(requests) > 0 {
		span, api = requests[len(requests)-1].At.Sub(requests[0].At), requests[0].API
	}
	share := 100 * float64(refused) / float64(max(len(requests), 1))
	b.ReportMetric(l.wall.Seconds(), "wall-s")
	b.ReportMetric(span.Seconds(), "span-s")
	b.ReportMetric(share, "%429")
	b.ReportMetric(float64(len(l.lost)), "lost")
	line := fmt.Sprintf("%d moves, %d requests (%s API), %d answered 429 (%.1f%%), %d moves lost; wall %.2fs, requests over %.2fs",
		l.moves, len(requests), api, refused, share, len(l.lost), l.wall.Seconds(), span.Seconds())
	if limit > 0 {
		bound := time.Duration(float64(answered) / limit * float64(time.Second))
		b.ReportMetric(bound.Seconds(), "bound-s")
		b.ReportMetric(l.wall.Seconds()/bound.Seconds(), "wall/bound")
		line += fmt.Sprintf("; bound %.2fs (%d answered / %g a second): wall %.2f×, span %.2f× the bound",
			bound.Seconds(), answered, limit, l.wall.Seconds()/bound.Seconds(), span.Seconds()/bound.Seconds())
	}
	var at []string
	for _, r := range requests {
		if r.Answer == fakellm.RateLimited {
			at = append(at, fmt.Sprintf("%.2fs", r.At.Sub(requests[0].At).Seconds()))
		}
	}
	if len(at) > 0 {
		line += fmt.Sprintf("; the 429s at %v", at)
	}
	b.Log(line)
}
