package deploy_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	composecli "github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// TestComposeFile loads deploy/compose.yaml with the Compose loader (which
// validates it against the Compose schema: an unknown key fails) and holds
// every service to leaguetui's real commands, flags, variables and ports,
// its health check to leaguetui probe, its secrets to files the project
// declares, and its endpoints to services.
func TestComposeFile(t *testing.T) {
	c := leaguetuiCLI(t)
	opts, err := composecli.NewProjectOptions([]string{"compose.yaml"}, composecli.WithWorkingDirectory("."), composecli.WithName("leaguetui"))
	if err != nil {
		t.Fatal(err)
	}
	project, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	if len(project.Services) < 4 {
		t.Fatalf("compose.yaml has %d services; want a manager, referees and players", len(project.Services))
	}
	for name, s := range project.Services {
		a := serviceAgent(name, s)
		checkAgent(t, c, a)
		checkServiceSecrets(t, a.where, s, project.Secrets)
		checkServiceEndpoints(t, a.where, name, s, project)
		if a.args[0] == "manager" {
			checkManagerPublished(t, a.where, s)
		} else if dep, ok := s.DependsOn["manager"]; !ok || dep.Condition != types.ServiceConditionHealthy {
			t.Errorf("%s: does not wait for the manager to be healthy", a.where)
		}
	}
}

// serviceAgent turns a service into the agent the shared checks read.
func serviceAgent(name string, s types.ServiceConfig) agent {
	a := agent{where: "compose service " + name, args: s.Command}
	for _, p := range s.Ports {
		a.ports = append(a.ports, int(p.Target))
	}
	for _, e := range s.Expose {
		a.ports = append(a.ports, atoi(e))
	}
	for k := range s.Environment {
		a.env = append(a.env, k)
	}
	for _, v := range s.Volumes {
		a.mounts = append(a.mounts, v.Target)
	}
	if s.HealthCheck != nil && len(s.HealthCheck.Test) > 1 && s.HealthCheck.Test[0] == "CMD" {
		a.probes = append(a.probes, s.HealthCheck.Test[1:])
	}
	return a
}

// checkServiceSecrets: a LEAGUETUI_*_FILE variable points at a secret the
// service is given, which the project reads from a file.
func checkServiceSecrets(t *testing.T, where string, s types.ServiceConfig, secrets types.Secrets) {
	t.Helper()
	for k, v := range s.Environment {
		if !strings.HasSuffix(k, "_FILE") || v == nil {
			continue
		}
		name, ok := strings.CutPrefix(*v, "/run/secrets/")
		given := slices.ContainsFunc(s.Secrets, func(ref types.ServiceSecretConfig) bool { return ref.Source == name })
		if !ok || !given || secrets[name].File == "" {
			t.Errorf("%s: %s=%s is not a secret the service is given from a file", where, k, *v)
		}
	}
	for _, ref := range s.Secrets {
		if _, ok := secrets[ref.Source]; !ok {
			t.Errorf("%s: uses secret %s, which the project does not declare", where, ref.Source)
		}
	}
}

// checkServiceEndpoints: --manager names the manager's service and port,
// --advertise the service's own name and port.
func checkServiceEndpoints(t *testing.T, where, name string, s types.ServiceConfig, p *types.Project) {
	t.Helper()
	if raw := flagValue(s.Command, "manager"); raw != "" {
		host, port := endpointHost(t, where+" --manager", raw)
		target, ok := p.Services[host]
		if !ok || atoi(flagValue(target.Command, "port")) != port || target.Command[0] != "manager" {
			t.Errorf("%s: --manager %s is not the manager service's port", where, raw)
		}
	}
	if raw := flagValue(s.Command, "advertise"); raw != "" {
		host, port := endpointHost(t, where+" --advertise", raw)
		if host != name || port != atoi(flagValue(s.Command, "port")) {
			t.Errorf("%s: --advertise %s is not the service's own name and --port", where, raw)
		}
	}
}

// checkManagerPublished: the console attaches from the host, on its
// loopback only.
func checkManagerPublished(t *testing.T, where string, s types.ServiceConfig) {
	t.Helper()
	port := atoi(flagValue(s.Command, "port"))
	for _, p := range s.Ports {
		if int(p.Target) == port && p.HostIP == "127.0.0.1" {
			return
		}
	}
	t.Errorf("%s: port %d is not published on the host's 127.0.0.1 for the console", where, port)
}
