package redistest

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// spawner starts every server from one goroutine locked to its OS thread for
// the life of the process. The kernel sends Pdeathsig when the thread that
// forked a child exits, not the process, and Go ends the thread of a goroutine
// that exits while locked to it; forking from a thread that never ends makes
// a server die exactly when the test binary does, even by a panic or SIGKILL.
var spawner struct {
	once sync.Once
	reqs chan spawnRequest
}

type spawnRequest struct {
	cmd *exec.Cmd
	err chan error
}

func startProcess(cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnRequest)
		go func() {
			runtime.LockOSThread()
			for r := range spawner.reqs {
				r.err <- r.cmd.Start()
			}
		}()
	})
	errc := make(chan error, 1)
	spawner.reqs <- spawnRequest{cmd, errc}
	return <-errc
}
