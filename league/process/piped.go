package process

import (
	"fmt"
	"os"
	"os/exec"
)

// Piped is a program leaguetui talks to over its standard input and
// output (a game program, one JSON object a line): Stdin is what it
// reads, Stdout what it writes; its standard error goes to the log.
// Both are pipes that take deadlines (SetWriteDeadline, SetReadDeadline).
type Piped struct {
	*Program
	Stdin  *os.File
	Stdout *os.File
}

// StartPiped is StartProgram for a program driven over its standard
// input and output, in the same sandbox, limits and log: only its
// standard error goes to spec.LogPath. The caller closes Stdin and
// Stdout once done, and stops the program.
func StartPiped(spec ProgramSpec) (*Piped, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	p, err := startJailed(spec, func(cmd *exec.Cmd, output *os.File) {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, output
	})
	inR.Close() // the program holds its own copies
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	return &Piped{Program: p, Stdin: inW, Stdout: outR}, nil
}
