package cli

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// A respConn is one plain RESP2 connection to one server, for what
// go-redis does not do well: a MONITOR stream, read as it comes, and
// COMMAND GETKEYS on a connection of its own whose address is known, so
// that its commands can be told apart in the stream. It sends only what it
// is asked to, after AUTH.
type respConn struct {
	nc      net.Conn
	r       *bufio.Reader
	timeout time.Duration
}

// A replyError is an error reply of the server: "NOPERM ...".
type replyError string

func (e replyError) Error() string { return string(e) }

// dialRESP connects to --addr, with TLS and AUTH as the flags say.
func (c *connFlags) dialRESP(ctx context.Context) (*respConn, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	tlsCfg, err := c.tlsConfig()
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: c.timeout}
	nc, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return nil, connError(c.addr, err)
	}
	if tlsCfg != nil {
		tc := tls.Client(nc, tlsCfg)
		hctx, cancel := context.WithTimeout(ctx, c.timeout)
		err := tc.HandshakeContext(hctx)
		cancel()
		if err != nil {
			nc.Close()
			return nil, connError(c.addr, err)
		}
		nc = tc
	}
	rc := &respConn{nc: nc, r: bufio.NewReaderSize(nc, 256<<10), timeout: c.timeout}
	pw := os.Getenv(PasswordEnv)
	var auth []string
	switch {
	case c.user != "":
		auth = []string{"AUTH", c.user, pw}
	case pw != "":
		auth = []string{"AUTH", pw}
	}
	if auth != nil {
		if _, err := rc.do(auth...); err != nil {
			rc.Close()
			return nil, connError(c.addr, err)
		}
	}
	return rc, nil
}

func (rc *respConn) Close() error { return rc.nc.Close() }

// localAddr is the connection's address as the server shows it.
func (rc *respConn) localAddr() string { return rc.nc.LocalAddr().String() }

// send writes a command.
func (rc *respConn) send(args ...string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	rc.nc.SetWriteDeadline(time.Now().Add(rc.timeout))
	_, err := io.WriteString(rc.nc, b.String())
	return err
}

// do sends a command and reads its reply, within the timeout.
func (rc *respConn) do(args ...string) (any, error) {
	if err := rc.send(args...); err != nil {
		return nil, err
	}
	rc.nc.SetReadDeadline(time.Now().Add(rc.timeout))
	defer rc.nc.SetReadDeadline(time.Time{})
	return rc.read()
}

// read reads one reply: a string, an int64, nil, a []any, or a
// replyError as the error.
func (rc *respConn) read() (any, error) {
	line, err := rc.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return nil, errors.New("empty reply line")
	}
	switch line[0] {
	case '+':
		return line[1:], nil
	case '-':
		return nil, replyError(line[1:])
	case ':':
		return strconv.ParseInt(line[1:], 10, 64)
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < -1 {
			return nil, fmt.Errorf("bad bulk length %q", line)
		}
		if n < 0 {
			return nil, nil
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(rc.r, b); err != nil {
			return nil, err
		}
		return string(b[:n]), nil
	case '*':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < -1 {
			return nil, fmt.Errorf("bad array length %q", line)
		}
		if n < 0 {
			return nil, nil
		}
		out := make([]any, 0, min(n, 1024))
		for range n {
			v, err := rc.read()
			var re replyError
			if err != nil && !errors.As(err, &re) {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unexpected reply %q", line)
}
