package leaguetest

import "os"

// killPID ends the process pid: TerminateProcess.
func killPID(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	defer p.Release()
	return p.Kill()
}
