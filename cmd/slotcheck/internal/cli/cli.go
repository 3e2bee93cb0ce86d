// Package cli is the slotcheck command: Run parses the arguments, talks to
// Redis through package clustercheck, and writes the results. The main
// package only calls Run, so the tests run the command in-process.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/pflag"
)

// Exit codes.
const (
	ExitOK       = 0 // done, nothing wrong found
	ExitMismatch = 1 // a slot or a colocation group did not check out
	ExitUsage    = 2 // bad arguments, a bad rules file or TLS file
	ExitError    = 3 // the server could not be reached, refused, or failed
	// ExitInterrupted is the status after SIGINT (Ctrl-C), 128+2 as a
	// shell reports a process killed by it.
	ExitInterrupted = 130
)

const usage = `slotcheck checks Redis Cluster keys against a live server, read-only.

Usage:
  slotcheck slot KEY... [--addr HOST:PORT]
  slotcheck verify --addr HOST:PORT [--rules FILE] [--samples N]
  slotcheck audit --addr HOST:PORT [--match PATTERN] [--rules FILE] [--rate N] [--json]
                  [--fail-on orphans,broken-hashtag,unmatched]
  slotcheck traffic --addr HOST:PORT [--duration D] [--sample N] [--json] [--fail-on KINDS]
  slotcheck traffic --from FILE|- [--rules FILE] [--json] [--fail-on KINDS]

Commands:
  slot     show the slot and hashtag of each key; with --addr, confirmed by
           the server's CLUSTER KEYSLOT
  verify   build sample keys for every key family of the rules, confirm
           their slots on the cluster, and that each colocation group lands
           in one slot; exits 1 on any mismatch
  audit    SCAN every master and report keys that fit no key family, broken
           hashtags, and how keys spread over slots and masters
  traffic  read a standalone server's MONITOR output, live or from a
           capture, and report what a cluster would refuse: cross-slot
           commands, transactions and scripts, databases other than 0,
           keyspace-wide commands

Connection flags (every command that talks to a server):
  --addr HOST:PORT   a server, or any node of a cluster
  --cluster          treat the server as a cluster node (default: detected
                     with INFO cluster)
  --user NAME        ACL user; the password is read from the environment
                     variable REDISCLI_AUTH, never from a flag
  --tls              connect with TLS; --cacert FILE, --cert FILE, --key FILE,
                     --insecure (skip certificate verification); each node's
                     certificate is checked against that node's own address
  --timeout DURATION limit on every call to a server (default 5s)

"--" ends the flags: what follows are arguments (keys), even if they start
with "-".

Exit status: 0 all good; 1 a mismatch was found (or, for audit and traffic,
a problem named in --fail-on); 2 bad usage: a bad flag or value, a bad rules file, a
missing or bad TLS file; 3 the server could not be reached, refused, or
failed; 130 interrupted (SIGINT). Run "slotcheck COMMAND --help" for more.
`

// Run runs slotcheck with args (without the program name) and returns the
// exit status.
func Run(args []string, stdout, stderr io.Writer) int {
	return RunContext(context.Background(), args, stdout, stderr)
}

// quietLogger drops go-redis's own log lines, which would break the rule
// that an error is one line on stderr: errors reach slotcheck as values.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

var quiet sync.Once

// RunContext is Run with a context that stops the work when done.
func RunContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	quiet.Do(func() { redis.SetLogger(quietLogger{}) })
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	var cmd func(context.Context, []string, io.Writer, io.Writer) error
	switch args[0] {
	case "slot":
		cmd = runSlot
	case "verify":
		cmd = runVerify
	case "audit":
		cmd = runAudit
	case "traffic":
		cmd = runTraffic
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return ExitOK
	default:
		fmt.Fprintf(stderr, "slotcheck: unknown command %q; the commands are slot, verify, audit and traffic (slotcheck --help)\n", args[0])
		return ExitUsage
	}
	err := cmd(ctx, args[1:], stdout, stderr)
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, pflag.ErrHelp):
		return ExitOK
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "slotcheck %s: interrupted\n", args[0])
		return ExitInterrupted
	}
	var ue *usageError
	var me *mismatchError
	var ie *inputError
	switch {
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "slotcheck %s: %s\n", args[0], oneLine(ie.Error()))
		return ExitUsage
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "slotcheck %s: %s (slotcheck %s --help)\n", args[0], oneLine(ue.msg), args[0])
		return ExitUsage
	case errors.As(err, &me):
		fmt.Fprintf(stderr, "slotcheck %s: %s\n", args[0], oneLine(me.msg))
		return ExitMismatch
	}
	fmt.Fprintf(stderr, "slotcheck %s: %s\n", args[0], oneLine(explain(err)))
	return ExitError
}

// An inputError is bad input other than a flag: a rules file, a TLS file.
// It exits with ExitUsage, without pointing to --help.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

type mismatchError struct{ msg string }

func (e *mismatchError) Error() string { return e.msg }

// oneLine folds a message onto one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// newFlags returns a flag set for a command whose help text is help.
func newFlags(name, help string, stdout io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("slotcheck "+name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprint(stdout, help)
		fmt.Fprintln(stdout, "\nFlags:")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parse parses a command's flags; --help prints the help, once, and returns
// pflag.ErrHelp.
func parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err // pflag has printed the help (fs.Usage)
		}
		return usagef("%v", err)
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
