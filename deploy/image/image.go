// Package image builds leaguetui's container image without a container
// engine: one layer holding the static binary, the CA certificates for TLS,
// a non-root user and the folders an agent writes, written as an OCI image
// layout or a tarball that `docker load` and `podman load` read. Nothing is
// fetched: the image starts from scratch, so CI builds it offline.
package image

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Where things are inside the image.
const (
	BinaryPath = "/usr/local/bin/leaguetui"
	CAPath     = "/etc/ssl/certs/ca-certificates.crt" // where Go's crypto/x509 looks first on Linux
	DataDir    = "/data"                              // every agent's --data, a volume
)

// The user the agents run as: not root, with the uid distroless images use,
// so volume permissions carry over between images.
const (
	UID      = 65532
	UserName = "leaguetui"
)

// Ports the image says it serves: the manager's, the first referee's and the
// first player's defaults.
var Ports = []string{"8000/tcp", "8001/tcp", "8101/tcp"}

// Options says what goes in the image.
type Options struct {
	Binary  string // a statically linked leaguetui
	CACerts string // a PEM bundle of CA certificates
	Version string // the image's version label
	// Created stamps the image; the zero time keeps the build reproducible.
	Created time.Time
}

// Build makes the image. It refuses a binary that is dynamically linked,
// since a scratch image has no C library to load it with.
func Build(opts Options) (v1.Image, error) {
	binary, err := staticBinary(opts.Binary)
	if err != nil {
		return nil, err
	}
	certs, err := os.ReadFile(opts.CACerts)
	if err != nil {
		return nil, fmt.Errorf("CA certificates: %w", err)
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(rootFS(binary, certs))), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layer)
	if err != nil {
		return nil, err
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.Architecture, cfg.OS = "amd64", "linux"
	if arch, ok := binaryArch(binary); ok {
		cfg.Architecture = arch
	}
	cfg.Created = v1.Time{Time: opts.Created}
	cfg.Config = imageConfig(opts.Version)
	return mutate.ConfigFile(img, cfg)
}

// imageConfig is how the image runs: leaguetui as the entry point, so
// `docker run IMAGE manager --port 8000` reads like the command line.
func imageConfig(version string) v1.Config {
	ports := map[string]struct{}{}
	for _, p := range Ports {
		ports[p] = struct{}{}
	}
	return v1.Config{
		Entrypoint:   []string{BinaryPath},
		Cmd:          []string{"--help"},
		User:         fmt.Sprintf("%d:%d", UID, UID),
		WorkingDir:   DataDir,
		Env:          []string{"PATH=/usr/local/bin", "HOME=" + DataDir},
		ExposedPorts: ports,
		Volumes:      map[string]struct{}{DataDir: {}},
		Labels: map[string]string{
			"org.opencontainers.image.title":   "leaguetui",
			"org.opencontainers.image.version": version,
		},
	}
}

// staticBinary reads the binary and checks it needs no dynamic loader.
func staticBinary(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("binary: %w", err)
	}
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("binary %s is not a Linux executable: %w", path, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return nil, fmt.Errorf("binary %s is dynamically linked: build it with CGO_ENABLED=0", path)
		}
	}
	return data, nil
}

// binaryArch names the binary's architecture as OCI does.
func binaryArch(data []byte) (string, bool) {
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return "", false
	}
	defer f.Close()
	switch f.Machine {
	case elf.EM_X86_64:
		return "amd64", true
	case elf.EM_AARCH64:
		return "arm64", true
	}
	return "", false
}

// rootFS is the one layer's tar: the folders, the user, the certificates and
// the binary, each owned and permitted as an agent needs.
func rootFS(binary, certs []byte) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dir := func(name string, mode int64, uid int) {
		must(tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name, Mode: mode, Uid: uid, Gid: uid}))
	}
	file := func(name string, mode int64, data []byte) {
		must(tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data))}))
		_, err := tw.Write(data)
		must(err)
	}
	for _, d := range []string{"etc/", "etc/ssl/", "etc/ssl/certs/", "usr/", "usr/local/", "usr/local/bin/"} {
		dir(d, 0o755, 0)
	}
	dir("tmp/", 0o1777, 0)
	dir(DataDir[1:]+"/", 0o755, UID)
	file("etc/passwd", 0o644, fmt.Appendf(nil, "root:x:0:0:root:/root:/sbin/nologin\n%s:x:%d:%d:%s:%s:/sbin/nologin\n", UserName, UID, UID, UserName, DataDir))
	file("etc/group", 0o644, fmt.Appendf(nil, "root:x:0:\n%s:x:%d:\n", UserName, UID))
	file(CAPath[1:], 0o644, certs)
	file(BinaryPath[1:], 0o755, binary)
	must(tw.Close())
	return buf.Bytes()
}

// must panics on an error writing to a bytes.Buffer, which cannot fail.
func must(err error) {
	if err != nil {
		panic(err)
	}
}
