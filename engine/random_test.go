package engine

import (
	"slices"
	"testing"
)

// draws returns the first n values of a MatchRand stream.
func draws(seed int64, matchID, purpose string, n int) []uint64 {
	rng := MatchRand(seed, matchID, purpose)
	out := make([]uint64, n)
	for i := range out {
		out[i] = rng.Uint64()
	}
	return out
}

func TestMatchRand(t *testing.T) {
	base := draws(42, "R1M1", "draw", 8)
	tests := []struct {
		name     string
		seed     int64
		matchID  string
		purpose  string
		wantSame bool
	}{
		{"same inputs", 42, "R1M1", "draw", true},
		{"different match id", 42, "R1M2", "draw", false},
		{"different seed", 43, "R1M1", "draw", false},
		{"different purpose", 42, "R1M1", "strategy:P01", false},
		{"boundary is not ambiguous", 42, "1M1", "drawR", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := draws(tt.seed, tt.matchID, tt.purpose, len(base))
			same := slices.Equal(got, base)
			if same != tt.wantSame {
				t.Errorf("same sequence = %v, want %v", same, tt.wantSame)
			}
		})
	}
}

func TestFNV64aKnownValues(t *testing.T) {
	// Reference values of 64-bit FNV-1a.
	tests := []struct {
		in   string
		want uint64
	}{
		{"", 0xcbf29ce484222325},
		{"a", 0xaf63dc4c8601ec8c},
	}
	for _, tt := range tests {
		if got := fnv64a(tt.in); got != tt.want {
			t.Errorf("fnv64a(%q) = %#x, want %#x", tt.in, got, tt.want)
		}
	}
}
