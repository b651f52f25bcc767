package deploy_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	kusttypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// cluster is what the kustomize base renders, decoded strictly.
type cluster struct {
	services  map[string]corev1.Service
	secrets   map[string]corev1.Secret
	workloads []workload
}

// workload is a StatefulSet or a Deployment, as far as the checks go.
type workload struct {
	kind, name  string
	replicas    int32
	serviceName string // a StatefulSet's governing Service
	claims      []string
	template    corev1.PodTemplateSpec
}

// TestKubernetesManifests renders deploy/kubernetes with kustomize (the
// secrets from secrets.env.example), decodes every resource strictly with
// the Kubernetes API types, and holds every container to leaguetui's real
// commands, flags, variables and ports, its probes to /health or leaguetui
// probe, its secrets to the generated Secret, and its endpoints to Services.
func TestKubernetesManifests(t *testing.T) {
	c := leaguetuiCLI(t)
	k := renderBase(t)

	byName := map[string]workload{}
	for _, w := range k.workloads {
		byName[w.name] = w
		checkWorkload(t, c, k, w)
	}
	manager, ok := byName["manager"]
	if !ok || manager.kind != "StatefulSet" || manager.replicas != 1 || len(manager.claims) == 0 {
		t.Errorf("the manager must be a one-replica StatefulSet with its own volume; got %+v", manager)
	}
	players, ok := byName["players"]
	if !ok || players.kind != "StatefulSet" || len(players.claims) == 0 {
		t.Errorf("players must be a StatefulSet keeping their credentials on volumes; got %+v", players)
	}
	if ref, ok := byName["referee"]; !ok || ref.kind != "Deployment" {
		t.Errorf("referees must be a Deployment; got %+v", ref)
	}
	for _, s := range k.services {
		if !selectsSome(s, k.workloads) {
			t.Errorf("Service %s selects no workload's pods", s.Name)
		}
	}
}

// renderBase runs kustomize on a copy of the base with example secrets.
func renderBase(t *testing.T) cluster {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "kubernetes")
	if err := os.CopyFS(dir, os.DirFS("kubernetes")); err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile(filepath.Join(dir, "secrets.env.example"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secrets.env"), example, 0o600); err != nil {
		t.Fatal(err)
	}
	checkEveryFileIsListed(t, dir)
	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize: %v", err)
	}
	k := cluster{services: map[string]corev1.Service{}, secrets: map[string]corev1.Secret{}}
	for _, r := range resources.Resources() {
		doc, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		decodeResource(t, r.GetKind(), doc, &k)
	}
	return k
}

// checkEveryFileIsListed fails for a manifest the kustomization leaves out,
// which kubectl apply -k would silently skip.
func checkEveryFileIsListed(t *testing.T, dir string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var kust kusttypes.Kustomization
	if err := yaml.UnmarshalStrict(raw, &kust); err != nil {
		t.Fatalf("kustomization.yaml: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	for _, f := range files {
		if base := filepath.Base(f); base != "kustomization.yaml" && !slices.Contains(kust.Resources, base) {
			t.Errorf("%s is not among the kustomization's resources", base)
		}
	}
}

// decodeResource decodes one rendered resource with its API type, refusing
// unknown fields, and files it.
func decodeResource(t *testing.T, kind string, doc []byte, k *cluster) {
	t.Helper()
	strict := func(into any) {
		if err := yaml.UnmarshalStrict(doc, into); err != nil {
			t.Fatalf("%s: %v\n%s", kind, err, doc)
		}
	}
	switch kind {
	case "Service":
		var s corev1.Service
		strict(&s)
		k.services[s.Name] = s
	case "Secret":
		var s corev1.Secret
		strict(&s)
		k.secrets[s.Name] = s
	case "StatefulSet":
		var s appsv1.StatefulSet
		strict(&s)
		k.workloads = append(k.workloads, workload{kind: kind, name: s.Name, replicas: deref(s.Spec.Replicas),
			serviceName: s.Spec.ServiceName, claims: claimNames(s.Spec.VolumeClaimTemplates), template: s.Spec.Template})
	case "Deployment":
		var d appsv1.Deployment
		strict(&d)
		k.workloads = append(k.workloads, workload{kind: kind, name: d.Name, replicas: deref(d.Spec.Replicas), template: d.Spec.Template})
	default:
		t.Errorf("unexpected kind %s in the base", kind)
	}
}

func deref(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

func claimNames(claims []corev1.PersistentVolumeClaim) []string {
	var names []string
	for _, c := range claims {
		names = append(names, c.Name)
	}
	return names
}

// checkWorkload checks a workload's pods and each of its containers.
func checkWorkload(t *testing.T, c cli, k cluster, w workload) {
	t.Helper()
	where := w.kind + " " + w.name
	pod := w.template.Spec
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Errorf("%s: pods must run as non-root", where)
	}
	for _, ctr := range pod.Containers {
		a := containerAgent(t, where+" container "+ctr.Name, ctr, w)
		checkAgent(t, c, a)
		checkResources(t, a.where, ctr)
		checkSecretRefs(t, a.where, ctr, k.secrets)
		checkVariablesUsed(t, a.where, ctr)
		checkEndpoints(t, a.where, a.args, w, k)
	}
}

// containerAgent turns a container into the agent the shared checks read.
func containerAgent(t *testing.T, where string, ctr corev1.Container, w workload) agent {
	t.Helper()
	if len(ctr.Command) > 0 {
		t.Errorf("%s: sets a command; the image's entry point is leaguetui", where)
	}
	a := agent{where: where, args: ctr.Args}
	named := map[string]int{}
	for _, p := range ctr.Ports {
		a.ports = append(a.ports, int(p.ContainerPort))
		named[p.Name] = int(p.ContainerPort)
	}
	for _, e := range ctr.Env {
		a.env = append(a.env, e.Name)
	}
	for _, m := range ctr.VolumeMounts {
		volumeKnown := slices.Contains(w.claims, m.Name) || slices.ContainsFunc(w.template.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == m.Name })
		if !volumeKnown {
			t.Errorf("%s: mounts volume %s, which the pod does not have", where, m.Name)
		}
		a.mounts = append(a.mounts, m.MountPath)
	}
	for kind, p := range map[string]*corev1.Probe{"readiness": ctr.ReadinessProbe, "liveness": ctr.LivenessProbe} {
		switch {
		case p == nil:
			t.Errorf("%s: no %s probe", where, kind)
		case p.Exec != nil:
			a.probes = append(a.probes, p.Exec.Command)
		case p.HTTPGet != nil:
			if p.HTTPGet.Path != "/health" {
				t.Errorf("%s: the %s probe asks %s, not /health", where, kind, p.HTTPGet.Path)
			}
			port := p.HTTPGet.Port.IntValue()
			if p.HTTPGet.Port.StrVal != "" {
				port = named[p.HTTPGet.Port.StrVal]
			}
			a.healthz = append(a.healthz, port)
		default:
			t.Errorf("%s: the %s probe is neither leaguetui probe nor GET /health", where, kind)
		}
	}
	return a
}

func checkResources(t *testing.T, where string, ctr corev1.Container) {
	t.Helper()
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := ctr.Resources.Requests[r]; !ok {
			t.Errorf("%s: no %s request", where, r)
		}
		if _, ok := ctr.Resources.Limits[r]; !ok {
			t.Errorf("%s: no %s limit", where, r)
		}
	}
}

// checkSecretRefs: each secret a variable reads is the generated Secret and
// holds the key.
func checkSecretRefs(t *testing.T, where string, ctr corev1.Container, secrets map[string]corev1.Secret) {
	t.Helper()
	for _, e := range ctr.Env {
		if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			continue
		}
		ref := e.ValueFrom.SecretKeyRef
		s, ok := secrets[ref.Name]
		_, hasKey := s.Data[ref.Key]
		if !ok || !hasKey {
			t.Errorf("%s: %s reads key %q of Secret %q, which the base does not make", where, e.Name, ref.Key, ref.Name)
		}
	}
}

// checkVariablesUsed: every $(VAR) in the arguments is one of the
// container's variables, which Kubernetes substitutes.
func checkVariablesUsed(t *testing.T, where string, ctr corev1.Container) {
	t.Helper()
	for _, arg := range ctr.Args {
		for _, m := range k8sVar.FindAllStringSubmatch(arg, -1) {
			if !slices.ContainsFunc(ctr.Env, func(e corev1.EnvVar) bool { return e.Name == m[1] }) {
				t.Errorf("%s: argument %q uses $(%s), which the container does not set", where, arg, m[1])
			}
		}
	}
}

// checkEndpoints: --manager names a Service on the manager's port, and
// --advertise a name the workload's headless Service gives each pod.
func checkEndpoints(t *testing.T, where string, args []string, w workload, k cluster) {
	t.Helper()
	if raw := flagValue(args, "manager"); raw != "" {
		host, port := endpointHost(t, where+" --manager", raw)
		s, ok := k.services[host]
		if !ok || !slices.ContainsFunc(s.Spec.Ports, func(p corev1.ServicePort) bool { return int(p.Port) == port }) {
			t.Errorf("%s: --manager %s names no Service with port %d", where, raw, port)
		}
	}
	if raw := flagValue(args, "advertise"); raw != "" {
		host, port := endpointHost(t, where+" --advertise", raw)
		pod, svc, _ := strings.Cut(host, ".")
		s, ok := k.services[svc]
		if pod != "$(POD_NAME)" || svc != w.serviceName || !ok || s.Spec.ClusterIP != corev1.ClusterIPNone {
			t.Errorf("%s: --advertise %s is not $(POD_NAME).%s under a headless Service", where, raw, w.serviceName)
		}
		if port != atoi(flagValue(args, "port")) {
			t.Errorf("%s: --advertise %s is not on --port %s", where, raw, flagValue(args, "port"))
		}
	}
}

func selectsSome(s corev1.Service, workloads []workload) bool {
	for _, w := range workloads {
		match := len(s.Spec.Selector) > 0
		for k, v := range s.Spec.Selector {
			match = match && w.template.Labels[k] == v
		}
		if match {
			return true
		}
	}
	return false
}
