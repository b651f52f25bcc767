package protocol

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns s with everything a terminal could take for a command
// written as a visible escape: control characters (ESC, CR, LF, BEL, C1 …)
// as \x1b or \u009b, invisible format characters such as the bidirectional
// overrides as \u202e, and bytes that are not UTF-8 as \xff. Strings from
// the network pass through it before the console or --no-ui shows them, so
// an agent cannot clear the screen, set the title, or write a line of its
// own. Printable strings come back unchanged, without a copy.
func Printable(s string) string {
	if isPrintable(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case printableRune(r):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	return b.String()
}

// isPrintable reports whether Printable would leave s as it is.
func isPrintable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return printableUTF8(s[i:])
		}
	}
	return true
}

func printableUTF8(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || !printableRune(r) {
			return false
		}
		i += size
	}
	return true
}

// printableRune is a letter, mark, number, punctuation, symbol or the ASCII
// space: never a control or format character, nor a line or paragraph
// separator.
func printableRune(r rune) bool { return unicode.IsPrint(r) }

// MakePrintable applies Printable to every string v holds, in place: the
// fields of structs (exported ones), the elements of slices, the keys and
// values of maps, through pointers and interfaces. v is a pointer to what
// was decoded from the network, such as a feed page or a standings file.
func MakePrintable(v any) {
	walkPrintable(reflect.ValueOf(v))
}

func walkPrintable(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkPrintable(v.Elem())
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		inner := reflect.New(v.Elem().Type()).Elem()
		inner.Set(v.Elem())
		walkPrintable(inner)
		if v.CanSet() {
			v.Set(inner)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkPrintable(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // raw bytes are not shown as they are
		}
		for i := range v.Len() {
			walkPrintable(v.Index(i))
		}
	case reflect.Map:
		walkPrintableMap(v)
	case reflect.String:
		if s := v.String(); v.CanSet() && !isPrintable(s) {
			v.SetString(Printable(s))
		}
	}
}

// walkPrintableMap rewrites a map's entries, whose keys and values are not
// addressable, through copies.
func walkPrintableMap(v reflect.Value) {
	for _, key := range v.MapKeys() {
		value := reflect.New(v.Type().Elem()).Elem()
		value.Set(v.MapIndex(key))
		walkPrintable(value)
		newKey := reflect.New(key.Type()).Elem()
		newKey.Set(key)
		walkPrintable(newKey)
		if !newKey.Equal(key) {
			v.SetMapIndex(key, reflect.Value{})
		}
		v.SetMapIndex(newKey, value)
	}
}
