// Package fill sets every field a value's JSON carries to a value of its
// own, so that a test can ask whether a codec carries each one: a field
// added to a type and forgotten by a hand-written writer or reader comes
// back zero, and the test that compares fails.
package fill

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Every sets every field v's JSON carries to a value of its own, not
// zero, named after path: the fields of structs (a json:"-" field only
// when it is a map, a game's facts that travel flat), one element of each
// slice and map, through pointers; a time in UTC. Strings are lower case,
// as a move is once read, and no "draw", which reads as no winner. A type
// in given is set to the value given for it instead (a type whose own
// UnmarshalJSON accepts only known values).
func Every(v reflect.Value, path string, given map[reflect.Type]any) {
	every(v, path, 0, given)
}

func every(v reflect.Value, path string, depth int, given map[reflect.Type]any) {
	if depth > 8 {
		return
	}
	if value, ok := given[v.Type()]; ok {
		v.Set(reflect.ValueOf(value))
		return
	}
	name := strings.ToLower(strings.NewReplacer(".", "-", "[", "-", "]", "").Replace(path))
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 23, 18, 0, 0, 123, time.UTC)))
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || (f.Tag.Get("json") == "-" && f.Type.Kind() != reflect.Map) {
				continue
			}
			every(v.Field(i), path+"."+f.Name, depth+1, given)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		every(v.Elem(), path, depth+1, given)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes(fmt.Appendf(nil, `{"raw":%q}`, name))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		every(v.Index(0), path+"[0]", depth+1, given)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		key := reflect.New(v.Type().Key()).Elem()
		every(key, path+".key", depth+1, given)
		value := reflect.New(v.Type().Elem()).Elem()
		every(value, path+".value", depth+1, given)
		v.SetMapIndex(key, value)
	case reflect.Interface:
		v.Set(reflect.ValueOf(name)) // a string decodes into an any as itself
	case reflect.String:
		v.SetString(name)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(7 + depth))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(7 + depth))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5 + float64(depth))
	}
}
