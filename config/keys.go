package config

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// keys is the shape of a config file: each key an object may hold, and
// for an object value the keys it may hold in turn (nil: any value).
type keys map[string]keys

// specificationKeys are the keys the specification's sample files carry
// that leaguetui reads no value from: a folder written for another
// implementation loads unchanged, and they are not mistaken for typos.
var specificationKeys = map[string]keys{
	"system.json": {"system_id": nil, "protocol_version": nil},
	"league": {"display_name": nil, "status": nil,
		"schedule": {"format": nil, "matches_per_round": nil, "max_rounds": nil}},
	"referee.json": {"version": nil, "game_types": nil, "active": nil,
		"settings": {"strict_timeout": nil, "log_transcript": nil, "random_seed": nil}},
	"player.json": {"version": nil, "game_types": nil, "active": nil,
		"settings": {"auto_accept_invitations": nil, "log_decisions": nil}},
}

// everyFileKeys are in every file of the specification's config layer.
var everyFileKeys = keys{"schema_version": nil, "last_updated": nil}

// keysOf reads the keys a file type decodes, from its json tags, with the
// specification's keys for the file named kind.
func keysOf(v any, kind string) keys {
	k := typeKeys(reflect.TypeOf(v))
	merge(k, everyFileKeys)
	merge(k, specificationKeys[kind])
	return k
}

func typeKeys(t reflect.Type) keys {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	k := keys{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if t.Field(i).Anonymous && name == "" {
			merge(k, typeKeys(t.Field(i).Type)) // an embedded struct's keys are its parent's, as encoding/json reads them
			continue
		}
		if name != "" && name != "-" {
			k[name] = typeKeys(t.Field(i).Type)
		}
	}
	return k
}

func merge(into, from keys) {
	for name, sub := range from {
		if into[name] == nil {
			into[name] = sub
			continue
		}
		merge(into[name], sub)
	}
}

// unknownKey finds the first key of data, in the order of the file, that
// the file's shape does not hold, and says which keys it could be.
func unknownKey(path string, data []byte, shape keys) error {
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil // the typed decoding reports bad JSON
	}
	return walkKeys(path, "", doc, shape)
}

func walkKeys(path, prefix string, value any, shape keys) error {
	object, ok := value.(map[string]any)
	if !ok || shape == nil {
		return nil
	}
	names := make([]string, 0, len(object))
	for name := range object {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		sub, known := shape[name]
		if !known {
			return &FileError{Path: path, Field: prefix + name,
				Err: fmt.Errorf("unknown key; %s holds %s", where(prefix), strings.Join(sortedKeys(shape), ", "))}
		}
		if err := walkKeys(path, prefix+name+".", object[name], sub); err != nil {
			return err
		}
	}
	return nil
}

// where names the object a key belongs to: "the file" or "timeouts".
func where(prefix string) string {
	if prefix == "" {
		return "the file"
	}
	return strings.TrimSuffix(prefix, ".")
}

func sortedKeys(k keys) []string {
	names := make([]string, 0, len(k))
	for name := range k {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
