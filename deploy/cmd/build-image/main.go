// Command build-image builds leaguetui's container image from a static
// binary, with no container engine:
//
//	CGO_ENABLED=0 go build -o leaguetui ./cmd/leaguetui
//	cd deploy && go run ./cmd/build-image --binary ../leaguetui --tarball ../leaguetui-image.tar
//	docker load -i leaguetui-image.tar     # or: podman load -i …
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"

	"github.com/leaguetui/leaguetui/deploy/image"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "build-image:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("bad command line")

func run(args []string) error {
	fs := flag.NewFlagSet("build-image", flag.ContinueOnError)
	binary := fs.String("binary", "leaguetui", "the statically linked leaguetui `file` (CGO_ENABLED=0 go build)")
	certs := fs.String("ca-certs", "/etc/ssl/certs/ca-certificates.crt", "PEM `file` of CA certificates to ship for TLS")
	tag := fs.String("tag", "leaguetui:latest", "the image's name in the tarball")
	version := fs.String("version", "dev", "the image's version label")
	tarPath := fs.String("tarball", "", "write the image as a tarball `file` that docker load and podman load read")
	layoutDir := fs.String("oci-layout", "", "write the image as an OCI image layout in `folder`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *tarPath == "" && *layoutDir == "" {
		return fmt.Errorf("%w: give --tarball FILE or --oci-layout FOLDER", errUsage)
	}
	ref, err := name.NewTag(*tag)
	if err != nil {
		return fmt.Errorf("%w: --tag %q: %v", errUsage, *tag, err)
	}
	img, err := image.Build(image.Options{Binary: *binary, CACerts: *certs, Version: *version})
	if err != nil {
		return err
	}
	if *tarPath != "" {
		if err := tarball.WriteToFile(*tarPath, ref, img); err != nil {
			return err
		}
		fmt.Println("wrote", *tarPath, "as", ref.String())
	}
	if *layoutDir != "" {
		p, err := layout.Write(*layoutDir, empty.Index)
		if err != nil {
			return err
		}
		if err := p.AppendImage(img); err != nil {
			return err
		}
		fmt.Println("wrote the OCI layout", *layoutDir)
	}
	return nil
}
