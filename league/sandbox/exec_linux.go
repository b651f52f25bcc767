package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Exec is ExecCommand: it confines this process by the Policy in its
// environment and executes the program in its place. Everything happens
// on one locked thread, which the program then runs on: capabilities,
// Landlock and seccomp are attributes of a thread, and execve keeps them.
// It returns only on failure.
func Exec(args []string) error {
	argv, err := parseArgs(args)
	if err != nil {
		return err
	}
	policy, err := takePolicy()
	if err != nil {
		return err
	}
	if policy.Supervisor > 0 {
		// Whatever fails from here, the program never inherits it.
		unix.CloseOnExec(policy.Supervisor)
	}
	// Everything execve needs is made before the limits are set: a low
	// memory limit may leave this process no room to allocate.
	pathp, err := syscall.BytePtrFromString(argv[0])
	if err != nil {
		return err
	}
	argvp, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return err
	}
	envp, err := syscall.SlicePtrFromStrings(os.Environ())
	if err != nil {
		return err
	}
	parent := os.Getppid()
	runtime.LockOSThread() // never unlocked: this thread becomes the program
	// The parent's death signal belongs to the thread it started, which
	// need not be this one: set again here, the program dies with
	// leaguetui even when it was killed outright.
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		return fmt.Errorf("%s: parent death signal: %w", ExecCommand, err)
	}
	if os.Getppid() != parent {
		return fmt.Errorf("%s: leaguetui exited before the program started", ExecCommand)
	}
	if err := confine(policy); err != nil {
		return fmt.Errorf("%s: %w", ExecCommand, err)
	}
	_, _, errno := syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(pathp)),
		uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])))
	return fmt.Errorf("%s: cannot execute %s: %w", ExecCommand, argv[0], errno)
}

// confine applies the policy to the calling thread, in an order where each
// step still has the rights it needs: capabilities are dropped first (that
// needs CAP_SETPCAP, which leaguetui run as root has), then no_new_privs,
// Landlock, and seccomp (its filter would refuse none of the calls before
// it, nor setrlimit), and the rlimits last: building the Landlock rules
// and the filter allocates, and a low memory limit set before them could
// leave this process no room (a race-detector build, whose runtime maps
// memory as it goes, ran out between the limit and execve).
func confine(p Policy) error {
	for _, procs := range p.Join {
		if err := os.WriteFile(procs, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			return fmt.Errorf("cgroup: %w", err)
		}
	}
	if p.Unconfined {
		return setRlimits(p.Limits)
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := restrictLandlock(p); err != nil {
		return err
	}
	if err := loadSeccomp(p); err != nil {
		return err
	}
	return setRlimits(p.Limits)
}

// dropCapabilities leaves the program no capability, even when leaguetui
// runs as root: the bounding set is emptied, and root's automatic
// capabilities at execve are switched off and locked so.
func dropCapabilities() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("ambient capabilities: %w", err)
	}
	var have unix.CapUserHeader
	have.Version = unix.LINUX_CAPABILITY_VERSION_3
	var data [2]unix.CapUserData
	if err := unix.Capget(&have, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	if data[0].Effective == 0 && data[1].Effective == 0 && data[0].Permitted == 0 && data[1].Permitted == 0 {
		return nil // an ordinary user: nothing to drop; no_new_privs keeps it so
	}
	for c := 0; ; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if err == unix.EINVAL {
				break // past the last capability this kernel knows
			}
			return fmt.Errorf("bounding set: %w", err)
		}
	}
	// SECBIT_NOROOT, SECBIT_NO_SETUID_FIXUP and SECBIT_KEEP_CAPS, each
	// with its lock bit (linux/securebits.h).
	const locked = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<5
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, locked, 0, 0, 0); err != nil {
		return fmt.Errorf("securebits: %w", err)
	}
	have.Pid = 0
	data = [2]unix.CapUserData{}
	if err := unix.Capset(&have, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}

func setRlimits(l Limits) error {
	for _, r := range []struct {
		resource int
		value    uint64
		name     string
	}{{unix.RLIMIT_DATA, l.MemoryBytes, "memory"}, {unix.RLIMIT_CPU, l.CPUSeconds, "CPU seconds"},
		{unix.RLIMIT_NPROC, l.Processes, "processes"}, {unix.RLIMIT_FSIZE, l.FileBytes, "file size"},
		{unix.RLIMIT_CORE, 0, "core files"}} {
		if r.value == 0 && r.resource != unix.RLIMIT_CORE {
			continue
		}
		if err := unix.Setrlimit(r.resource, &unix.Rlimit{Cur: r.value, Max: r.value}); err != nil {
			return fmt.Errorf("cannot limit %s to %d: %w", r.name, r.value, err)
		}
	}
	return nil
}

// landlockConfig is the Landlock ABI the sandbox is written for: files,
// TCP ports, and signals and abstract sockets scoped to the sandbox.
// Newer kernels give no less; what Landlock does not cover (datagrams,
// pathname sockets, Multipath TCP) the seccomp filter refuses.
var landlockConfig = landlock.V7

// restrictLandlock confines files, TCP ports and signals; where the
// kernel's Landlock is older, as much as it can, unless p.Require.
func restrictLandlock(p Policy) error {
	rules := []landlock.Rule{}
	for _, path := range p.Read {
		rules = append(rules, readRule(path))
	}
	if len(p.List) > 0 {
		rules = append(rules, landlock.PathAccess(llsyscall.AccessFSReadDir, p.List...))
	}
	for _, path := range p.Write {
		rules = append(rules, writeRule(path))
	}
	for _, port := range p.Bind {
		rules = append(rules, landlock.BindTCP(port))
	}
	if !p.AnyPort { // with connecting not handled, a rule for it is invalid
		for _, port := range p.Connect {
			rules = append(rules, landlock.ConnectTCP(port))
		}
	}
	cfg := landlockConfig
	if p.AnyPort {
		// Only binding is handled: connecting to any port stays allowed.
		cfg.HandledAccessNet = landlock.AccessNetSet(llsyscall.AccessNetBindTCP)
	}
	if !p.Require {
		cfg = cfg.BestEffort()
	}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if fd < 0 {
		return nil // no Landlock here, and not required: said by the parent
	}
	defer unix.Close(fd)
	if err := llsyscall.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}

// readRule lets the program read and execute path: a folder with all it
// holds, or one file.
func readRule(path string) landlock.Rule {
	if isDir(path) {
		return landlock.RODirs(path).IgnoreIfMissing()
	}
	return landlock.ROFiles(path).IgnoreIfMissing()
}

// writeRule lets the program read and write beneath path; /dev/null and
// the like are files, written but not made.
func writeRule(path string) landlock.Rule {
	if isDir(path) {
		return landlock.RWDirs(path).WithRefer().IgnoreIfMissing()
	}
	return landlock.RWFiles(path).IgnoreIfMissing()
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
