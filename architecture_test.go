package leaguetui_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is this module's path, the prefix of its own imports.
const module = "github.com/leaguetui/leaguetui"

// architecturePage is the page whose package table this test checks.
const architecturePage = "docs/architecture.md"

// TestArchitectureNamesEveryPackage: every Go package of the module has a
// row in docs/architecture.md's package table, and every row names a
// package that exists.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	rules := readPackageTable(t)
	packages := modulePackages(t)
	for pkg := range packages {
		if _, ok := rules[pkg]; !ok {
			t.Errorf("%s does not name the package %s: add its row to the package table", architecturePage, pkg)
		}
	}
	for pkg := range rules {
		if _, ok := packages[pkg]; !ok {
			t.Errorf("%s names %s, which is not a package of the module", architecturePage, pkg)
		}
	}
}

// TestArchitectureImportRules: no package's code (tests aside) imports a
// package of the module that its row in docs/architecture.md does not
// allow.
func TestArchitectureImportRules(t *testing.T) {
	rules := readPackageTable(t)
	for pkg, imports := range modulePackages(t) {
		rule, ok := rules[pkg]
		if !ok || rule.any {
			continue // a package without a row fails the test above
		}
		for _, imp := range imports {
			if !slices.Contains(rule.allowed, imp) {
				t.Errorf("%s imports %s, which its row in %s does not allow (may import: %s)",
					pkg, imp, architecturePage, rule)
			}
		}
	}
}

// TestLayoutRooms: every package lives in a folder of the layout table
// of docs/architecture.md, and the rooms import only inward: the engine
// nothing, an agent nothing of what runs a league from outside it or of
// the screen, and what runs a league from outside nothing of the screen.
func TestLayoutRooms(t *testing.T) {
	rooms := readLayoutTable(t)
	forbidden := map[string][]string{
		"engine": {"agents", "league", "tui", "config", "cmd"},
		"agents": {"league", "tui", "cmd"},
		"league": {"tui", "cmd"},
	}
	for pkg, imports := range modulePackages(t) {
		room := roomOf(pkg)
		if !slices.Contains(rooms, room) {
			t.Errorf("%s lives in %s/, which the layout table of %s does not name", pkg, room, architecturePage)
		}
		for _, imp := range imports {
			if slices.Contains(forbidden[room], roomOf(imp)) {
				t.Errorf("%s (in %s/) imports %s (in %s/): the layout forbids it", pkg, room, imp, roomOf(imp))
			}
		}
	}
}

// roomOf is the top folder of a package path relative to the module:
// "agents" for "agents/manager"; "." for the module's root.
func roomOf(pkg string) string {
	room, _, _ := strings.Cut(pkg, "/")
	return room
}

// readLayoutTable reads the folders named in the first column of the
// table under "## The layout" ("agents/" is "agents").
func readLayoutTable(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(architecturePage)
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "\n## The layout\n")
	section, _, _ = strings.Cut(section, "\n## ")
	rooms := []string{"."} // the root holds this test and docs_test.go
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range quoted.FindAllStringSubmatch(cells[1], -1) {
			rooms = append(rooms, roomOf(strings.TrimSuffix(m[1], "/")))
		}
	}
	if len(rooms) == 1 {
		t.Fatalf("%s has no layout table under \"## The layout\"", architecturePage)
	}
	return rooms
}

// importRule is a row's "may import" cell.
type importRule struct {
	any     bool     // any package of the module
	allowed []string // else these, relative to the module ("engine")
}

func (r importRule) String() string {
	if len(r.allowed) == 0 {
		return "nothing"
	}
	return strings.Join(r.allowed, ", ")
}

var quoted = regexp.MustCompile("`([^`]+)`")

// readPackageTable reads the table under "## Packages": each row names
// its packages in backquotes in the first cell, and in the third either
// the packages they may import, in backquotes, "any package of the
// module", or "nothing".
func readPackageTable(t *testing.T) map[string]importRule {
	t.Helper()
	f, err := os.Open(architecturePage)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules := map[string]importRule{}
	inSection := false
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := scanner.Text()
		if strings.HasPrefix(line, "## ") {
			inSection = line == "## Packages"
			continue
		}
		cells := strings.Split(line, "|")
		if !inSection || len(cells) != 5 || !strings.Contains(cells[1], "`") {
			continue
		}
		rule := importRule{any: strings.Contains(cells[3], "any package")}
		for _, m := range quoted.FindAllStringSubmatch(cells[3], -1) {
			rule.allowed = append(rule.allowed, m[1])
		}
		if !rule.any && len(rule.allowed) == 0 && strings.TrimSpace(cells[3]) != "nothing" {
			t.Errorf("%s: the row of %s says %q: want packages in backquotes, \"any package of the module\" or \"nothing\"",
				architecturePage, strings.TrimSpace(cells[1]), strings.TrimSpace(cells[3]))
		}
		for _, m := range quoted.FindAllStringSubmatch(cells[1], -1) {
			if _, twice := rules[m[1]]; twice {
				t.Errorf("%s names %s in two rows", architecturePage, m[1])
			}
			rules[m[1]] = rule
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rules) == 0 {
		t.Fatalf("%s has no package table under \"## Packages\"", architecturePage)
	}
	return rules
}

// modulePackages finds every folder of the module that holds Go files and
// returns, for each, the module's packages its non-test files import,
// relative to the module ("." for its root). Folders named testdata or
// node_modules, hidden ones and nested modules are not the module's.
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	packages := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") ||
				strings.HasPrefix(name, "_") || fileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		imports := packages[pkg]
		if !strings.HasSuffix(path, "_test.go") {
			found, err := moduleImports(path)
			if err != nil {
				return err
			}
			imports = append(imports, found...)
		}
		slices.Sort(imports)
		packages[pkg] = slices.Compact(imports)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return packages
}

// moduleImports lists the module's packages a Go file imports.
func moduleImports(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, spec := range f.Imports {
		imp, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return nil, err
		}
		if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
			out = append(out, rel)
		}
	}
	return out, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// maxCommandFunc is the most lines a function of cmd/ may have, from its
// func line to its closing brace: the command line wires the parts, and
// a command that needs more has a part of its own to name.
const maxCommandFunc = 60

// TestCommandFunctionsAreShort: no function of cmd/'s code (tests aside)
// is longer than maxCommandFunc lines.
func TestCommandFunctionsAreShort(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("cmd", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if lines := end.Line - start.Line + 1; lines > maxCommandFunc {
				t.Errorf("%s:%d: %s is %d lines long, over %d: split it", path, start.Line, funcName(fn), lines, maxCommandFunc)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// funcName is a function's name as its code calls it: "runLeague",
// "(*leagueFlags).given".
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	recv := fn.Recv.List[0].Type
	if index, ok := recv.(*ast.IndexExpr); ok { // a generic type's method
		recv = index.X
	}
	switch r := recv.(type) {
	case *ast.StarExpr:
		if id, ok := r.X.(*ast.Ident); ok {
			return "(*" + id.Name + ")." + fn.Name.Name
		}
	case *ast.Ident:
		return r.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}
