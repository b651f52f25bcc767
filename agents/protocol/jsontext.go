package protocol

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
)

// The pieces every hand-written encoder of the module shares (the wire's,
// the match file's, the journal's): each appends what encoding/json writes
// for the same value, so the bytes do not depend on which path wrote them.

// AppendString appends s as encoding/json writes a string: plain ASCII is
// copied between quotes, anything else is left to encoding/json.
func AppendString(dst []byte, s string) []byte {
	if writtenAsIs(s) {
		return append(append(append(dst, '"'), s...), '"')
	}
	quoted, _ := json.Marshal(s) // a string always encodes
	return append(dst, quoted...)
}

// AppendFloat appends f as encoding/json writes a float64; it is false
// for NaN and the infinities, which encoding/json refuses.
func AppendFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' { // e-09 is written e-9
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}

// SortedKeys is m's keys in the order encoding/json writes a map's, in
// room's array when they fit: a map of a few facts costs no allocation.
func SortedKeys[V any](m map[string]V, room []string) []string {
	keys := room[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
