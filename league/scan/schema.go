package scan

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

//go:generate go test -run TestExportSchemaIsCurrent . -update

// Schema is the moves export's record schema as docs/export.md shows it:
// a row per field of MoveRecord, from its json and doc tags, then the
// fields of its model block, from protocol.ModelMove, so that a field
// added to either is in the docs once they are generated again.
func Schema() string {
	var b strings.Builder
	b.WriteString("| field | JSON type | what it is |\n|---|---|---|\n")
	t := reflect.TypeFor[MoveRecord]()
	for i := range t.NumField() {
		f := t.Field(i)
		fmt.Fprintf(&b, "| %s | %s | %s |\n", fieldCell(f), jsonType(f.Type), f.Tag.Get("doc"))
	}
	b.WriteString("\nThe `model` block's fields (protocol.ModelMove; `reasoning` is left out, its prompt and reply are above):\n\n")
	b.WriteString("| field | JSON type |\n|---|---|\n")
	m := reflect.TypeFor[protocol.ModelMove]()
	for i := range m.NumField() {
		f := m.Field(i)
		if name := jsonName(f); name != "reasoning" && name != "-" && f.IsExported() {
			fmt.Fprintf(&b, "| %s | %s |\n", fieldCell(f), jsonType(f.Type))
		}
	}
	return b.String()
}

// jsonName is a field's name in JSON.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		name = f.Name
	}
	return name
}

// fieldCell is a field's name for a table, "(optional)" beside it when
// JSON leaves it out empty.
func fieldCell(f reflect.StructField) string {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	if strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
		return "`" + jsonName(f) + "` (optional)"
	}
	return "`" + jsonName(f) + "`"
}

// jsonType is how encoding/json writes a value of t.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonType(t.Elem()) + " or null"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array of " + jsonType(t.Elem())
	case reflect.Map:
		return "object"
	case reflect.Struct:
		if t == reflect.TypeFor[protocol.ModelMove]() {
			return "object (below)"
		}
		return "object"
	}
	return t.Kind().String()
}
