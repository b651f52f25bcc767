package launcher

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/league/process"
)

// No roster program may read the roster (the keys it gives others in
// their env), a .env beside it or in leaguetui's working folder, or the
// config folder; and a program whose entry sets no disk cap gets the
// default, or its share of half the free space where that is less.
func TestProgramSiteHidesTheRosterAndSharesTheDisk(t *testing.T) {
	root, configDir := t.TempDir(), t.TempDir()
	t.Chdir(root)
	rosterDir := t.TempDir()
	roster := &config.Roster{Path: filepath.Join(rosterDir, "roster.json"), Players: []config.RosterEntry{
		{Name: "a", Command: []string{"a"}}, {Name: "b", Command: []string{"b"}},
		{Name: "c", Command: []string{"c"}, Limits: config.ProgramLimits{DiskMB: 5}}, {Name: "d", Strategy: "random"}}}
	var said []string
	l := &League{Manager: &process.Child{Endpoint: "http://127.0.0.1:1/mcp"}, notify: func(s string) { said = append(said, s) }}
	opts := Spec{DataDir: filepath.Join(root, "data"), Roster: roster, Config: config.Config{Dir: configDir}}
	if err := os.Mkdir(opts.DataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	site, err := l.programSite(opts, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{roster.Path, filepath.Join(rosterDir, ".env"), filepath.Join(root, ".env"), configDir,
		opts.DataDir} {
		if !slices.Contains(site.hide, want) {
			t.Errorf("hide %v lacks %s", site.hide, want)
		}
	}
	wantCap, shared := process.DiskCap(uint64(config.DefaultProgramLimits.DiskMB)<<20, opts.DataDir, 2)
	if site.diskCap != wantCap || (len(said) == 1) != shared {
		t.Errorf("disk cap %d (said %q), want %d for two programs (shared: %v)", site.diskCap, said, wantCap, shared)
	}
	for _, e := range roster.Players[:3] {
		spec := programSpec(e, site, 1)
		want := wantCap
		if e.Limits.DiskMB != 0 {
			want = uint64(e.Limits.DiskMB) << 20
		}
		if spec.Sandbox.DiskBytes != want {
			t.Errorf("%s: disk cap %d, want %d", e.Name, spec.Sandbox.DiskBytes, want)
		}
	}
}
