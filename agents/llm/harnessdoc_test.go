package llm_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// docs/data-folder.md names every field a harness and an ask write in a
// match file, for the readers of match files.
func TestMatchFileFieldsDocumented(t *testing.T) {
	page, err := os.ReadFile("../../docs/data-folder.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[protocol.Harness](), reflect.TypeFor[protocol.ModelAsk](), reflect.TypeFor[protocol.ModelMove]()} {
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if !strings.Contains(string(page), "`"+name+"`") {
				t.Errorf("docs/data-folder.md does not name %s's field `%s`", typ.Name(), name)
			}
		}
	}
}
