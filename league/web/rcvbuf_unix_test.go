//go:build unix

package web_test

import "syscall"

// smallReceiveBuffer gives the socket fd a receive buffer of 4 KiB.
func smallReceiveBuffer(fd uintptr) error {
	return syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
}
