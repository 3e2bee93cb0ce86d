package clustercheck_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/clustercheck"
)

// fakeRedis8 is a standalone server that answers, over RESP2, the commands
// an audit sends as Redis 8.0 does, with cluster-compatibility-sample-ratio
// set: INFO stats has cluster_incompatible_ops. No Redis 8 server can be
// installed where slotlint's tests run (Redis 7.0 is), so this stands in
// for one; every other audit test runs against a real redis-server.
type fakeRedis8 struct {
	ln   net.Listener
	keys []string
	ops  string // the field's value; "" leaves the field out (Redis 7)
	wg   sync.WaitGroup
}

func startFakeRedis8(t *testing.T, ops string, keys ...string) *fakeRedis8 {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeRedis8{ln: ln, keys: keys, ops: ops}
	f.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.wg.Go(func() { f.serve(c) })
		}
	})
	t.Cleanup(func() { ln.Close(); f.wg.Wait() })
	return f
}

func (f *fakeRedis8) serve(c net.Conn) {
	defer c.Close()
	r, w := bufio.NewReader(c), bufio.NewWriter(c)
	for {
		args, err := readCommand(r)
		if err != nil {
			return
		}
		f.reply(w, args)
		if w.Flush() != nil {
			return
		}
	}
}

func (f *fakeRedis8) reply(w *bufio.Writer, args []string) {
	bulk := func(s string) { fmt.Fprintf(w, "$%d\r\n%s\r\n", len(s), s) }
	switch strings.ToUpper(args[0]) {
	case "HELLO":
		// Redis 8 answers HELLO 2 with its server properties.
		props := []string{"server", "redis", "version", "8.0.0", "proto", "2", "id", "7", "mode", "standalone", "role", "master"}
		fmt.Fprintf(w, "*%d\r\n", len(props)+2)
		for _, p := range props {
			bulk(p)
		}
		bulk("modules")
		w.WriteString("*0\r\n")
	case "PING":
		w.WriteString("+PONG\r\n")
	case "CLIENT", "SELECT":
		w.WriteString("+OK\r\n")
	case "DBSIZE":
		fmt.Fprintf(w, ":%d\r\n", len(f.keys))
	case "INFO":
		info := "# Stats\r\ntotal_connections_received:3\r\ntotal_commands_processed:42\r\n"
		if f.ops != "" {
			info += "cluster_incompatible_ops:" + f.ops + "\r\n"
		}
		info += "expired_keys:0\r\n"
		bulk(info)
	case "SCAN":
		w.WriteString("*2\r\n")
		bulk("0")
		fmt.Fprintf(w, "*%d\r\n", len(f.keys))
		for _, k := range f.keys {
			bulk(k)
		}
	default:
		fmt.Fprintf(w, "-ERR unknown command '%s', with args beginning with: \r\n", args[0])
	}
}

// readCommand reads one command, an array of bulk strings.
func readCommand(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(line, "*") {
		return nil, fmt.Errorf("not an array: %q", line)
	}
	n, err := strconv.Atoi(strings.TrimSpace(line[1:]))
	if err != nil || n < 1 {
		return nil, fmt.Errorf("bad array length %q", line)
	}
	args := make([]string, n)
	for i := range args {
		h, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		size, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(h, "$")))
		if err != nil {
			return nil, fmt.Errorf("bad bulk length %q", h)
		}
		b := make([]byte, size+2)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		args[i] = string(b[:size])
	}
	return args, nil
}

// On a Redis 8 server, Audit reads cluster_incompatible_ops from INFO
// stats; on a server without it (Redis 7, the fake without the field), the
// count is unknown.
func TestAuditRedis8IncompatibleOps(t *testing.T) {
	ctx := testCtx(t)
	for _, tc := range []struct {
		ops   string
		known bool
		want  int64
	}{{"17", true, 17}, {"0", true, 0}, {"", false, 0}} {
		f := startFakeRedis8(t, tc.ops, "user:1", "{order}:2", "cart:{}")
		c := redis.NewClient(&redis.Options{Addr: f.ln.Addr().String(), Protocol: 2, DisableIdentity: true})
		r, err := clustercheck.Audit(ctx, c, clustercheck.AuditOptions{})
		c.Close()
		if err != nil {
			t.Fatalf("audit of the fake Redis 8 (ops %q): %v", tc.ops, err)
		}
		if r.Keys != 3 || r.EmptyTag.Keys != 1 {
			t.Errorf("ops %q: %d keys, %d with an empty hashtag; want 3 and 1", tc.ops, r.Keys, r.EmptyTag.Keys)
		}
		if r.IncompatibleOpsKnown != tc.known || r.IncompatibleOps != tc.want {
			t.Errorf("ops %q: IncompatibleOps %d (known %v), want %d (known %v)", tc.ops, r.IncompatibleOps, r.IncompatibleOpsKnown, tc.want, tc.known)
		}
	}
}
