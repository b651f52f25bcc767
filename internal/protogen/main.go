// Command protogen writes docs/protocol.md, the league.v2 reference, from
// the code: the message table (protocol.Messages), the Go types of the
// messages through the MCP schemas made from them (agents/mcpserve), the
// error codes, the timeouts of config.Default and the spellings the
// liberal decoders accept. Its test fails when the document and the code
// disagree.
//
//	go run ./internal/protogen            rewrite docs/protocol.md
//	go run ./internal/protogen -o FILE    write it elsewhere ("-" for stdout)
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Regenerate is the command that rewrites the document.
const Regenerate = "go run ./internal/protogen"

func main() {
	out := flag.String("o", defaultPath(), "where to write the reference (- for stdout)")
	flag.Parse()
	doc := Generate()
	if *out == "-" {
		_, _ = os.Stdout.Write(doc)
		return
	}
	if err := os.WriteFile(*out, doc, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}

// defaultPath is docs/protocol.md of the repository this file is in.
func defaultPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "docs", "protocol.md")
}
