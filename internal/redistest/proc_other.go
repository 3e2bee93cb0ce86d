//go:build !linux

package redistest

import "os/exec"

// startProcess starts cmd. Only Linux has Pdeathsig: elsewhere, a test binary
// that dies without running its cleanups leaves its servers running.
func startProcess(cmd *exec.Cmd) error { return cmd.Start() }
