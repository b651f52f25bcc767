package process

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestProgramSpecResolve(t *testing.T) {
	spec := ProgramSpec{Command: []string{"prog", "--port", "{port}"}, Dir: "{data}/work",
		Env:          map[string]string{"B": "{name}", "A": "x"},
		Placeholders: Placeholders{PlaceholderPort: "9", PlaceholderData: "/d", PlaceholderName: "bob"}}
	r, err := spec.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Args, " ") != "prog --port 9" || r.Dir != "/d/work" || strings.Join(r.Env, " ") != "A=x B=bob" {
		t.Errorf("resolved %+v", r)
	}
	spec.Env["C"] = "{nope}"
	if _, err := spec.Resolve(); err == nil || !strings.Contains(err.Error(), "env C") {
		t.Errorf("err = %v, want one naming env C", err)
	}
}

// A supervised program that exits is started again, at most the bounded
// number of times, and its output goes to its log file.
func TestSuperviseRestartsBoundedTimes(t *testing.T) {
	log := filepath.Join(t.TempDir(), "p.log")
	lines := make(chan string, 10)
	s, err := Supervise(ProgramSpec{Name: "program p", Command: []string{"sh", "-c", "echo run; exit 7"}, LogPath: log,
		Sandbox: Confinement{Off: true}}, 2,
		func(line string) { lines <- line })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop(time.Second)
	var said []string
	for len(said) < 4 {
		select {
		case line := <-lines:
			said = append(said, line)
		case <-time.After(20 * time.Second):
			t.Fatalf("supervision said only %q", said)
		}
	}
	said = said[1:] // the first line says how it is confined
	if !strings.Contains(said[2], "no restart left") || !strings.Contains(said[0], "exit status 7") || s.Runs() != 3 {
		t.Errorf("said %q after %d runs; want two restarts, then none left", said, s.Runs())
	}
	data, _ := os.ReadFile(log)
	if strings.Count(string(data), "\nrun\n") != 3 {
		t.Errorf("log %q, want three runs' output", data)
	}
}

// A supervised program whose {port} something else holds when it is to
// start again (a participant's connection whose local port the kernel
// took from the range free ports come from) starts on a free port
// instead, so that no one can keep it from coming back.
func TestSuperviseMovesATakenPort(t *testing.T) {
	dir := t.TempDir()
	first, err := FreePort("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	ports := filepath.Join(dir, "ports")
	lines := make(chan string, 10)
	spec := ProgramSpec{Name: "program p", Command: []string{"sh", "-c", "echo {port} >> " + ports + "; exit 7"},
		LogPath: filepath.Join(dir, "p.log"), Sandbox: Confinement{Off: true}, PortHost: "127.0.0.1",
		Placeholders: Placeholders{PlaceholderPort: strconv.Itoa(first)}}
	// Held before the first start: the first run still gets the port it
	// was given (the league chose it), the restart a free one.
	holder, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(first)))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	s, err := Supervise(spec, 1, func(line string) { lines <- line })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop(time.Second)
	var moved string
	for moved == "" {
		select {
		case line := <-lines:
			if strings.Contains(line, "is taken") {
				moved = line
			}
			if strings.Contains(line, "no restart left") {
				t.Fatalf("the restart did not move the port: %q", line)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("no restart")
		}
	}
	<-s.Down()
	data, _ := os.ReadFile(ports)
	got := strings.Fields(string(data))
	if len(got) != 2 || got[0] != strconv.Itoa(first) || got[1] == got[0] {
		t.Errorf("the runs listened on %q (said %q); want %d, then another port", got, moved, first)
	}
}
