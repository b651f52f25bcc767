package wirejson

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/segmentio/encoding/json"
)

// Member is one member of an object being written: its name, and its
// value as encoding/json writes it (compact, escaped as it escapes).
type Member struct {
	Name string
	Raw  []byte
}

// AppendObject appends the object of members, in their order, as
// encoding/json writes a struct or a map with those names and values:
// framing by hand copies each value once instead of scanning it again.
func AppendObject(dst []byte, members ...Member) []byte {
	dst = append(dst, '{')
	for i, m := range members {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(append(appendName(dst, m.Name), ':'), m.Raw...)
	}
	return append(dst, '}')
}

// AppendMember appends object, as json.Marshal writes one, with m added
// as its last member.
func AppendMember(dst, object []byte, m Member) []byte {
	dst = append(dst, object[:len(object)-1]...)
	if len(object) > len("{}") {
		dst = append(dst, ',')
	}
	dst = append(append(appendName(dst, m.Name), ':'), m.Raw...)
	return append(dst, '}')
}

// appendName appends name as encoding/json writes a key.
func appendName(dst []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c >= 0x80 || strings.IndexByte(`"\<>&`, c) >= 0 {
			quoted, _ := json.Marshal(name) // a string always encodes
			return append(dst, quoted...)
		}
	}
	return append(append(append(dst, '"'), name...), '"')
}

// Flatten marshals v and merges extra's keys into the object, without
// overwriting v's own fields: the bytes json.Marshal makes of the merged
// fields as a map[string]any (flattenThroughMap), spliced from v's members
// and each extra value's encoding where they are the same bytes.
func Flatten(v any, extra map[string]any) ([]byte, error) {
	base, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return base, err
	}
	if !reencodesAsIs(base) {
		return flattenThroughMap(base, extra)
	}
	var members []Member
	if !ScanObject(base, func(key, raw []byte) bool {
		members = append(members, Member{Name: string(key), Raw: raw})
		return true
	}) {
		return flattenThroughMap(base, extra)
	}
	for name, val := range extra {
		if slices.ContainsFunc(members, func(m Member) bool { return m.Name == name }) {
			continue
		}
		raw, err := json.Marshal(val)
		if err != nil {
			return nil, err
		}
		members = append(members, Member{name, raw})
	}
	slices.SortFunc(members, func(a, b Member) int { return strings.Compare(a.Name, b.Name) })
	return AppendObject(make([]byte, 0, 2*len(base)), members...), nil
}

// reencodesAsIs reports an encoded object whose values decode into a
// map[string]any and encode again as the same bytes: no number (it would
// come back as a float64) and no invalid UTF-8 (encoded as \ufffd, it
// would come back as the character itself).
func reencodesAsIs(encoded []byte) bool {
	if bytes.Contains(encoded, []byte(`\ufffd`)) {
		return false
	}
	inString := false
	for i := 0; i < len(encoded); i++ {
		switch c := encoded[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == '-' || '0' <= c && c <= '9'):
			return false
		}
	}
	return true
}

// flattenThroughMap merges extra's keys into base, an encoded object,
// through a map[string]any, without overwriting base's own fields.
func flattenThroughMap(base []byte, extra map[string]any) ([]byte, error) {
	var fields map[string]any
	if err := json.Unmarshal(base, &fields); err != nil {
		return nil, err
	}
	for k, val := range extra {
		if _, taken := fields[k]; !taken {
			fields[k] = val
		}
	}
	return json.Marshal(fields)
}

// NullFieldSlot splits indented, an object encoded by json.MarshalIndent
// with the indent "  ", around the null value of its top-level field:
// indented is before + "null" + after. Writers of a file whose largest
// part is encoded apart encode the rest with that field nil and put the
// part in its place. A JSON string holds no raw newline, so the field is
// found nowhere else.
func NullFieldSlot(indented []byte, field string) (before, after []byte, err error) {
	key := "\n  \"" + field + "\": "
	at := bytes.Index(indented, []byte(key+"null"))
	if at < 0 {
		return nil, nil, fmt.Errorf("no null %q at the top of %.80q", field, indented)
	}
	at += len(key)
	return indented[:at], indented[at+len("null"):], nil
}
