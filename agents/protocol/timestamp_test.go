package protocol

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// formatAsBefore is FormatTime as it always was: time.Format each time.
func formatAsBefore(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// sameSecondEverywhere is t and the times that share or neighbour its
// text: its second's first and last nanosecond, the seconds around it and
// those that share its slot, in zones east and west, with and without a
// monotonic reading.
func sameSecondEverywhere(t time.Time) []time.Time {
	second := time.Unix(t.Unix(), 0)
	out := []time.Time{t, second, second.Add(time.Second - 1), second.Add(-1), second.Add(time.Second),
		second.Add(time.Duration(len(recentStamps)) * time.Second), second.Add(-time.Duration(len(recentStamps)) * time.Second)}
	for _, zone := range []*time.Location{time.UTC, time.Local, time.FixedZone("east", 14*3600), time.FixedZone("west", -(9*3600 + 30*60 + 17))} {
		out = append(out, t.In(zone), second.Add(time.Second-1).In(zone))
	}
	return append(out, t.Round(0))
}

// TestFormatTimeAsBefore: FormatTime, its seconds kept, gives the text
// time.Format gives, whatever order times come in: now, deadlines ahead,
// the past and the far future, sub-second edges, any zone.
func TestFormatTimeAsBefore(t *testing.T) {
	now := time.Now()
	times := []time.Time{now, now.Add(30 * time.Second), now.Add(5 * time.Second), {}, time.Unix(0, 0),
		time.Unix(-1, 999_999_999), time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		times = append(times, time.Unix(rng.Int64N(1<<40)-1<<39, rng.Int64N(1e9)), now.Add(time.Duration(rng.Int64N(int64(time.Hour)))))
	}
	for _, base := range times {
		for _, tm := range sameSecondEverywhere(base) {
			if got, want := FormatTime(tm), formatAsBefore(tm); got != want {
				t.Fatalf("FormatTime(%v) = %q, time.Format %q", tm, got, want)
			}
		}
	}
}

// TestFormatTimeConcurrently: goroutines writing the same and colliding
// seconds at once each get their own time's text.
func TestFormatTimeConcurrently(t *testing.T) {
	start := time.Now()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				tm := start.Add(time.Duration(i%40+g*len(recentStamps)) * time.Second / 2)
				if got, want := FormatTime(tm), formatAsBefore(tm); got != want {
					t.Errorf("FormatTime(%v) = %q, time.Format %q", tm, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzFormatTime holds FormatTime to time.Format on any instant, in any
// zone, after any other.
func FuzzFormatTime(f *testing.F) {
	f.Add(time.Now().Unix(), int64(0), 0, int64(30))
	f.Add(int64(-62135596800), int64(999_999_999), -3600, int64(16))
	f.Add(int64(253402300799), int64(1), 50400, int64(-1))
	f.Fuzz(func(t *testing.T, second, nanos int64, offset int, step int64) {
		first := time.Unix(second, nanos).In(time.FixedZone("z", offset%(30*3600)))
		for _, tm := range []time.Time{first, first.Add(time.Duration(step) * time.Second), first} {
			if got, want := FormatTime(tm), formatAsBefore(tm); got != want {
				t.Fatalf("FormatTime(%v) = %q, time.Format %q", tm, got, want)
			}
		}
	})
}

// BenchmarkFormatTime writes the timestamps of a referee's match: now,
// and a move's deadline ahead, kept per second and by time.Format.
func BenchmarkFormatTime(b *testing.B) {
	for name, format := range map[string]func(time.Time) string{"kept": FormatTime, "time.Format": formatAsBefore} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				now := time.Now()
				_ = format(now)
				_ = format(now.Add(30 * time.Second))
			}
		})
	}
}
