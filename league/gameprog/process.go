package gameprog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/league/process"
	"github.com/leaguetui/leaguetui/league/sandbox"
)

// MaxLine bounds one line the program writes: a longer one is garbage.
const MaxLine = 1 << 20

// stopGrace is how long a program has to exit once its standard input
// closes, and then once asked to (SIGTERM), before it is killed.
const stopGrace = time.Second

// Site is where a referee runs its game programs.
type Site struct {
	// Shim is leaguetui's executable, which confines itself and becomes
	// the program (the referee's own, os.Executable()).
	Shim string
	// LogDir is where each match's program output (its standard error)
	// goes, a file a match: <match id>.log.
	LogDir string
	// Hide are paths the program may never read (the league's data
	// folder, the config folder, key files).
	Hide []string
	// Require refuses to run a program this machine cannot confine.
	Require bool
	// Unconfined runs the program with its limits but no sandbox: for
	// the tests of this package, whose binary is no shim.
	Unconfined bool
	// Record, when set, is given every line the program sends, with its
	// match's id, as it comes (`leaguetui check --game` compares them).
	Record func(matchID string, line []byte)
}

// process is one run of the game program, for one match.
type gameProcess struct {
	piped  *process.Piped
	reader *bufio.Reader
	data   string // its own folder, removed once it exits
	record func([]byte)
}

// startProcess starts the manifest's program for a match, in the
// sandbox: its own folder, no network, capped memory, CPU, disk and
// output.
func startProcess(m config.GameManifest, site Site, matchID string) (*gameProcess, error) {
	if site.Shim == "" || site.LogDir == "" {
		return nil, errors.New("this referee has no place to run game programs")
	}
	data, err := os.MkdirTemp("", "leaguetui-game-"+sandbox.SafeName(m.Name)+"-")
	if err != nil {
		return nil, err
	}
	limits := m.EffectiveLimits()
	spec := process.ProgramSpec{
		Name:         "game " + m.Name,
		Command:      m.Command,
		Dir:          m.Dir,
		Placeholders: process.Placeholders{process.PlaceholderData: data},
		LogPath:      filepath.Join(site.LogDir, sandbox.SafeName(matchID)+".log"),
		Limits: sandbox.Limits{MemoryBytes: uint64(limits.MemoryMB) << 20, CPUSeconds: uint64(limits.CPUSeconds),
			Processes: uint64(limits.Processes), FileBytes: uint64(limits.FileMB) << 20},
		Shim: site.Shim,
		Sandbox: process.Confinement{Off: site.Unconfined, Require: site.Require, Hide: site.Hide,
			Read: []string{m.Dir}, DiskBytes: uint64(limits.DiskMB) << 20},
	}
	piped, err := process.StartPiped(spec)
	if err != nil {
		os.RemoveAll(data)
		return nil, err
	}
	gp := &gameProcess{piped: piped, reader: bufio.NewReaderSize(piped.Stdout, 64<<10), data: data}
	if site.Record != nil {
		gp.record = func(line []byte) { site.Record(matchID, line) }
	}
	return gp, nil
}

// ask writes msg as one line and reads the program's answer, each within
// deadline.
func (p *gameProcess) ask(msg any, deadline time.Duration) ([]byte, error) {
	line, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	until := time.Now().Add(deadline)
	_ = p.piped.Stdin.SetWriteDeadline(until)
	if _, err := p.piped.Stdin.Write(append(line, '\n')); err != nil {
		return nil, p.broken("its input cannot be written", err, deadline)
	}
	_ = p.piped.Stdout.SetReadDeadline(until)
	answer, err := readLine(p.reader)
	if err != nil {
		return nil, p.broken("no answer", err, deadline)
	}
	if p.record != nil {
		p.record(bytes.Clone(answer))
	}
	return answer, nil
}

// broken says why the program gave no answer: it exited (and how), did
// not answer in time, or wrote a line too long.
func (p *gameProcess) broken(what string, err error, deadline time.Duration) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("%s within %v", what, deadline)
	case errors.Is(err, errLineTooLong):
		return err
	}
	select {
	case <-p.piped.Exited():
	case <-time.After(stopGrace):
		return fmt.Errorf("%s: %v", what, err)
	}
	if exit := p.piped.ExitError(); exit != nil {
		return fmt.Errorf("the game program exited (%v)", exit)
	}
	return errors.New("the game program exited")
}

var errLineTooLong = fmt.Errorf("a line of more than %d bytes", MaxLine)

// readLine reads one line without its end, at most MaxLine bytes.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine+1 {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return bytes.TrimRight(line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// close ends the run: its standard input closes (the program's sign to
// exit), and it is stopped if it has not exited within stopGrace. It
// returns at once; the stopping goes on in the background.
func (p *gameProcess) close() {
	p.piped.Stdin.Close()
	go func() {
		select {
		case <-p.piped.Exited():
		case <-time.After(stopGrace):
			p.piped.Stop(stopGrace)
		}
		p.piped.Stdout.Close()
		os.RemoveAll(p.data)
	}()
}
