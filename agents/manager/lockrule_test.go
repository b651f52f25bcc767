package manager

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestJournalOnlyThroughJournaled holds the package to the rule of
// journaled.go: the journal is appended to only by a batch, and a batch is
// made only by journaled, which waits for the journal's fsync after
// releasing m.mu. So no path can journal with the lock held through the
// fsync, or act on an event before it is durable. What runs under the
// lock (a function given to journaled, or one that stages in a batch)
// writes no file either: files are written after the wait.
func TestJournalOnlyThroughJournaled(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, breach := range lockRuleBreaches(fset, file, path == "journaled.go") {
			t.Error(breach)
		}
	}
}

// appendsToJournal are the journal's methods that write to it.
var appendsToJournal = map[string]bool{"Enqueue": true, "Append": true}

// writesFiles are the calls that write a file, or wait for one written.
var writesFiles = map[string]bool{
	"writeFile": true, "writeStandings": true, "writeRounds": true, "Flush": true,
	"WriteJSON": true, "WriteFileAtomic": true, "abandonFiles": true,
}

// lockRuleBreaches lists where file breaks the rule; helper says it is
// journaled.go, where the journal is appended to and batches are made.
func lockRuleBreaches(fset *token.FileSet, file *ast.File, helper bool) []string {
	var breaches []string
	breach := func(n ast.Node, format string, args ...any) {
		breaches = append(breaches, fset.Position(n.Pos()).String()+": "+fmt.Sprintf(format, args...))
	}
	// noFileWrites notes each call in code, which runs under m.mu, that
	// writes a file.
	noFileWrites := func(code ast.Node) {
		ast.Inspect(code, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if name, _ := calledOn(call); writesFiles[name] {
					breach(call, "%s is called under m.mu; write files once journaled has returned", name)
				}
			}
			return true
		})
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			name, on := calledOn(n)
			if !helper && appendsToJournal[name] && on == "journal" {
				breach(n, "the journal is appended to outside journaled (journaled.go)")
			}
			if name == "journaled" {
				for _, arg := range n.Args {
					noFileWrites(arg)
				}
			}
		case *ast.CompositeLit:
			if id, ok := n.Type.(*ast.Ident); ok && id.Name == "batch" && !helper {
				breach(n, "a batch is made outside journaled")
			}
		case *ast.FuncDecl:
			if takesBatch(n.Type) && n.Body != nil {
				noFileWrites(n.Body)
			}
		}
		return true
	})
	return breaches
}

// calledOn is the name of the function or method called, and the last
// name of what a method is called on ("journal" in m.journal.Enqueue).
func calledOn(call *ast.CallExpr) (name, on string) {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name, ""
	case *ast.SelectorExpr:
		switch x := fn.X.(type) {
		case *ast.Ident:
			return fn.Sel.Name, x.Name
		case *ast.SelectorExpr:
			return fn.Sel.Name, x.Sel.Name
		}
		return fn.Sel.Name, ""
	}
	return "", ""
}

// takesBatch says a function stages in a batch: it runs under m.mu.
func takesBatch(fn *ast.FuncType) bool {
	for _, p := range fn.Params.List {
		if star, ok := p.Type.(*ast.StarExpr); ok {
			if id, ok := star.X.(*ast.Ident); ok && id.Name == "batch" {
				return true
			}
		}
	}
	return false
}

// TestLockRuleSeesViolations runs the rule's check over code that breaks
// it, so that a check that sees nothing cannot pass for one that holds.
func TestLockRuleSeesViolations(t *testing.T) {
	const src = `package manager
func (m *Manager) bad() {
	m.mu.Lock()
	m.journal.Enqueue(ev)
	m.mu.Unlock()
	b := &batch{m: m}
	m.journaled(func(b *batch) error { m.writeFile("x", nil); return nil })
}
func (m *Manager) stageIn(b *batch) { m.writeStandings() }
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "bad.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := lockRuleBreaches(fset, file, false)
	want := []string{
		"bad.go:4:2: the journal is appended to outside journaled (journaled.go)",
		"bad.go:6:8: a batch is made outside journaled",
		"bad.go:7:37: writeFile is called under m.mu; write files once journaled has returned",
		"bad.go:9:39: writeStandings is called under m.mu; write files once journaled has returned",
	}
	if !slices.Equal(got, want) {
		t.Errorf("breaches found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
