// Command slotcheck checks Redis Cluster keys against a live server,
// read-only: the slot of keys (slot), the rules' key families and
// colocation groups (verify), and every key of a cluster (audit). Run
// "slotcheck --help" for its usage.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/slotlint/slotlint/cmd/slotcheck/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.RunContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
