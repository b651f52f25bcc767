package protocol

import (
	"math"
	"testing"
)

// Another player's reported costs are summed without wrapping round and
// without a negative count taking from the sum.
func TestModelCostMergeSaturates(t *testing.T) {
	c := ModelCost{InputTokens: math.MaxInt64 - 1, OutputTokens: 5, Moves: 2}
	c.Merge(ModelCost{InputTokens: 10, OutputTokens: -3, Moves: -1, LatencyMS: math.MaxInt64})
	if c.InputTokens != math.MaxInt64 || c.OutputTokens != 5 || c.Moves != 2 || c.LatencyMS != math.MaxInt64 {
		t.Errorf("merged %+v; want input saturated, output and moves unchanged, latency saturated", c)
	}
	if got := AddCount(3, 4); got != 7 {
		t.Errorf("AddCount(3, 4) = %d", got)
	}
}
