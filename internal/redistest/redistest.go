// Package redistest starts real redis-server processes for slotlint's tests:
// a three-master Redis Cluster (StartCluster, or Shared for one cluster per
// test binary) and standalone servers (StartStandalone).
//
// Servers listen on free loopback ports, keep their files in a temporary
// directory and are stopped when the test ends, whether it passed or not. On
// Linux they are also killed when the test binary dies. Every wait has a
// deadline; a server that does not come up fails the test with the tail of its
// log.
//
// When redis-server (7.0 or later) is not on PATH, the helpers skip the test,
// or fail it when the environment variable SLOTLINT_REQUIRE_REDIS is 1.
package redistest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// RequireEnv is the environment variable that turns a missing redis-server
// from a skipped test into a failed one when set to 1.
const RequireEnv = "SLOTLINT_REQUIRE_REDIS"

const missingHint = "redis-server not found on PATH; install it (apt-get install redis-server) or set SLOTLINT_REQUIRE_REDIS=1 to make this a failure"

// Deadlines. Every wait in this package is bounded by one of them.
const (
	startTimeout   = 15 * time.Second // a process answers PING
	stopTimeout    = 10 * time.Second // a process exits after SIGTERM
	clusterTimeout = 30 * time.Second // a cluster agrees on its state
	commandTimeout = 10 * time.Second // one admin command
	portAttempts   = 5                // fresh ports tried when bind fails
)

// An Option configures the servers that StartCluster and StartStandalone
// start.
type Option func(*config)

type config struct {
	password string
	extra    []string
	perNode  func(i int) []string
	tls      bool
	replicas bool
}

// WithPassword makes the servers require password for the default user
// (requirepass). The helpers' own connections and the clients they return
// authenticate with it.
func WithPassword(password string) Option {
	return func(c *config) { c.password = password }
}

// WithConfig appends redis.conf directives, one per string, to every server's
// configuration, after the helper's own, which they override: for example
// "cluster-require-full-coverage no" or "user alice on >secret ~* &* +@all".
func WithConfig(directives ...string) Option {
	return func(c *config) { c.extra = append(c.extra, directives...) }
}

// WithNodeConfig appends, to the configuration of the i-th node of a cluster
// (or of a standalone server, i = 0), the directives that fn returns, after
// those of WithConfig: for example "cluster-announce-hostname localhost".
func WithNodeConfig(fn func(i int) []string) Option {
	return func(c *config) { c.perNode = fn }
}

// WithTLS makes a cluster's nodes speak TLS only, to clients and to each
// other: node i listens on 127.0.0.(i+1), with a certificate of its own,
// valid for that address only, signed by the cluster's CA (Cluster.CA).
// The helpers' own connections, Server.Options and Cluster.ClusterOptions
// verify each node against its own address.
func WithTLS() Option {
	return func(c *config) { c.tls = true }
}

// WithReplicas gives each master of a cluster one replica (Cluster.Replicas),
// for tests of failover (Cluster.Failover).
func WithReplicas() Option {
	return func(c *config) { c.replicas = true }
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}

var lookup struct {
	once sync.Once
	path string
	err  error
}

// Require returns the path of redis-server. When it is not on PATH, or older
// than 7.0, Require skips the test, or fails it when SLOTLINT_REQUIRE_REDIS
// is 1.
func Require(t testing.TB) string {
	t.Helper()
	lookup.once.Do(func() { lookup.path, lookup.err = locate() })
	if lookup.err == nil {
		return lookup.path
	}
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s=1: %v", RequireEnv, lookup.err)
	}
	t.Skip(lookup.err)
	return ""
}

var versionRE = regexp.MustCompile(`v=(\d+)\.(\d+)\.(\d+)`)

// locate finds redis-server on PATH and checks that it is 7.0 or later.
func locate() (string, error) {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return "", errors.New(missingHint)
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v; %s", path, err, missingHint)
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("%s --version printed no version (%q); %s", path, bytes.TrimSpace(out), missingHint)
	}
	if major, _ := strconv.Atoi(string(m[1])); major < 7 {
		return "", fmt.Errorf("%s is version %s.%s.%s, older than the 7.0 that slotlint's tests need; %s", path, m[1], m[2], m[3], missingHint)
	}
	return path, nil
}

// A Server is one redis-server process, standalone or a cluster node. Its
// methods may be called from any goroutine.
type Server struct {
	// Addr is the server's address, "127.0.0.1:port". It stays the same
	// across Stop and Start.
	Addr string
	// Password is the default user's password, "" for none.
	Password string
	// Dir is the server's directory: its redis.conf, logs and, for a
	// cluster node, nodes.conf.
	Dir string

	path    string
	cfg     config
	cluster bool
	index   int    // the node's index in its cluster, 0 for a standalone server
	host    string // the loopback address the server binds, "" for 127.0.0.1
	tls     *nodeTLS
	port    int
	busPort int // cluster bus port, for cluster nodes

	mu    sync.Mutex
	proc  *process
	admin *redis.Client
}

type process struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // cmd.Wait's result, set before done is closed
}

// StartStandalone starts a standalone redis-server and stops it when the test
// ends.
func StartStandalone(t testing.TB, opts ...Option) *Server {
	t.Helper()
	path := Require(t)
	s := &Server{Dir: t.TempDir(), path: path, cfg: newConfig(opts)}
	s.Password = s.cfg.password
	t.Cleanup(func() { s.cleanup(t) })
	if err := s.startFresh(); err != nil {
		t.Fatal(err)
	}
	return s
}

// cleanup stops s at the end of a test, logging the tail of its log if the
// test failed.
func (s *Server) cleanup(t testing.TB) {
	if t.Failed() {
		t.Logf("redis-server %s log tail:\n%s", s.Addr, s.LogTail(15))
	}
	if err := s.Stop(); err != nil {
		t.Error(err)
	}
}

// startFresh picks ports and starts s, picking new ports if the server
// cannot bind the ones it was given.
func (s *Server) startFresh() error {
	var err error
	for range portAttempts {
		if err = s.pickPorts(); err != nil {
			return err
		}
		if err = s.launch(); err == nil || !errors.Is(err, errAddrInUse) {
			return err
		}
	}
	return fmt.Errorf("redis-server could not bind a free port in %d attempts: %w", portAttempts, err)
}

func (s *Server) pickPorts() error {
	var ports []int
	n := 1
	if s.cluster {
		n = 2
	}
	// Hold every listener until all are chosen, so the ports differ.
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", net.JoinHostPort(s.bindHost(), "0"))
		if err != nil {
			return fmt.Errorf("find a free port: %v", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	s.port = ports[0]
	s.Addr = net.JoinHostPort(s.bindHost(), strconv.Itoa(s.port))
	if s.cluster {
		s.busPort = ports[1]
	}
	return nil
}

// Start starts s again after Stop or Kill, on the same port and with the same
// files; a cluster node keeps its ID and rejoins its cluster (see
// Cluster.WaitHealthy). Start on a running server does nothing.
func (s *Server) Start() error {
	if s.Running() {
		return nil
	}
	var err error
	for range portAttempts {
		if err = s.launch(); err == nil || !errors.Is(err, errAddrInUse) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
	return err
}

// Restart stops s and starts it again.
func (s *Server) Restart() error {
	if err := s.Stop(); err != nil {
		return err
	}
	return s.Start()
}

// Running reports whether s's process is running.
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return false
	}
	select {
	case <-s.proc.done:
		return false
	default:
		return true
	}
}

// Stop shuts s down with SIGTERM, and kills it if it has not exited within
// a few seconds. Stop on a stopped server does nothing.
func (s *Server) Stop() error { return s.stop(syscall.SIGTERM) }

// Kill kills s with SIGKILL, as a crash would.
func (s *Server) Kill() error { return s.stop(syscall.SIGKILL) }

func (s *Server) stop(sig syscall.Signal) error {
	s.mu.Lock()
	p, admin := s.proc, s.admin
	s.proc, s.admin = nil, nil
	s.mu.Unlock()
	if admin != nil {
		admin.Close()
	}
	if p == nil {
		return nil
	}
	return p.stop(sig, s.Addr)
}

func (p *process) stop(sig syscall.Signal, addr string) error {
	select {
	case <-p.done:
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
		return nil
	case <-time.After(stopTimeout):
	}
	_ = p.cmd.Process.Kill()
	select {
	case <-p.done:
		return nil
	case <-time.After(stopTimeout):
		return fmt.Errorf("redis-server %s (pid %d) did not exit after SIGKILL", addr, p.cmd.Process.Pid)
	}
}

var errAddrInUse = errors.New("address already in use")

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}

// bindHost is the loopback address s listens on.
func (s *Server) bindHost() string {
	if s.host == "" {
		return "127.0.0.1"
	}
	return s.host
}

func (s *Server) writeConfig() error {
	var b strings.Builder
	if s.tls != nil {
		fmt.Fprintf(&b, "bind %s\nport 0\ntls-port %d\n%s", s.bindHost(), s.port, s.tls.directives())
	} else {
		fmt.Fprintf(&b, "bind %s\nport %d\n", s.bindHost(), s.port)
	}
	b.WriteString("protected-mode no\ndaemonize no\n")
	fmt.Fprintf(&b, "dir %s\nlogfile %s\n", quote(s.Dir), quote(filepath.Join(s.Dir, "redis.log")))
	b.WriteString("save \"\"\nappendonly no\nenable-debug-command local\n")
	if s.cluster && s.host != "" {
		// Without it, peers take the source address of the node's bus
		// connections, 127.0.0.1, for its own.
		fmt.Fprintf(&b, "cluster-announce-ip %s\n", s.host)
	}
	if s.cluster {
		fmt.Fprintf(&b, "cluster-enabled yes\ncluster-config-file %s\ncluster-port %d\ncluster-node-timeout 2000\n",
			quote(filepath.Join(s.Dir, "nodes.conf")), s.busPort)
	}
	if s.cfg.password != "" {
		fmt.Fprintf(&b, "requirepass %s\nmasterauth %s\n", quote(s.cfg.password), quote(s.cfg.password))
	}
	for _, d := range s.cfg.extra {
		b.WriteString(d + "\n")
	}
	if s.cfg.perNode != nil {
		for _, d := range s.cfg.perNode(s.index) {
			b.WriteString(d + "\n")
		}
	}
	return os.WriteFile(filepath.Join(s.Dir, "redis.conf"), []byte(b.String()), 0o600)
}

// launch starts the process and waits until it answers PING.
func (s *Server) launch() error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	if err := s.writeConfig(); err != nil {
		return err
	}
	var logOff int64
	if fi, err := os.Stat(filepath.Join(s.Dir, "redis.log")); err == nil {
		logOff = fi.Size()
	}
	out, err := os.OpenFile(filepath.Join(s.Dir, "stdout.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.path, filepath.Join(s.Dir, "redis.conf"))
	cmd.Dir = s.Dir
	cmd.Stdout, cmd.Stderr = out, out
	err = startProcess(cmd)
	out.Close()
	if err != nil {
		return fmt.Errorf("start redis-server: %v", err)
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()

	deadline := time.Now().Add(startTimeout)
	var pingErr error
	for {
		select {
		case <-p.done:
			tail := s.logSince(logOff)
			err := fmt.Errorf("redis-server %s exited during startup (%v); log tail:\n%s", s.Addr, p.err, lastLines(tail, 20))
			if strings.Contains(tail, "Address already in use") {
				err = fmt.Errorf("%w: %w", errAddrInUse, err)
			}
			return err
		default:
		}
		if pingErr = s.checkReady(cmd.Process.Pid); pingErr == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = p.stop(syscall.SIGKILL, s.Addr)
			return fmt.Errorf("redis-server %s did not answer PING within %v (%v); log tail:\n%s",
				s.Addr, startTimeout, pingErr, lastLines(s.logSince(logOff), 20))
		}
		select {
		case <-p.done:
		case <-time.After(25 * time.Millisecond):
		}
	}
	s.mu.Lock()
	s.proc = p
	s.mu.Unlock()
	return nil
}

// checkReady sends PING and makes sure the server that answers is the
// process that was started, not another one that took the port.
func (s *Server) checkReady(pid int) error {
	var conn net.Conn
	var err error
	if s.tls != nil {
		conn, err = tls.DialWithDialer(&net.Dialer{Timeout: time.Second}, "tcp", s.Addr, s.tlsConfig())
	} else {
		conn, err = net.DialTimeout("tcp", s.Addr, time.Second)
	}
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Second))
	r := bufio.NewReader(conn)
	do := func(args ...string) (string, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "*%d\r\n", len(args))
		for _, a := range args {
			fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
		}
		if _, err := io.WriteString(conn, b.String()); err != nil {
			return "", err
		}
		return readReply(r)
	}
	if s.cfg.password != "" {
		if _, err := do("AUTH", s.cfg.password); err != nil {
			return err
		}
	}
	if reply, err := do("PING"); err != nil {
		return err
	} else if reply != "PONG" {
		return fmt.Errorf("PING answered %q", reply)
	}
	info, err := do("INFO", "server")
	if err != nil {
		return err
	}
	if !strings.Contains(info, fmt.Sprintf("process_id:%d\r\n", pid)) {
		return fmt.Errorf("another process answers on %s", s.Addr)
	}
	return nil
}

// readReply reads a simple string, error or bulk string reply.
func readReply(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", errors.New("empty reply")
	}
	switch line[0] {
	case '+':
		return line[1:], nil
	case '-':
		return "", errors.New(strings.ToLower(line[1:2]) + line[2:])
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", fmt.Errorf("unexpected reply %q", line)
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return "", fmt.Errorf("unexpected reply %q", line)
}

// LogTail returns the last n lines of s's log, its standard output included.
func (s *Server) LogTail(n int) string {
	return lastLines(s.logSince(0), n)
}

func (s *Server) logSince(off int64) string {
	var b strings.Builder
	if out, err := os.ReadFile(filepath.Join(s.Dir, "stdout.log")); err == nil && len(bytes.TrimSpace(out)) > 0 {
		b.Write(out)
	}
	if log, err := os.ReadFile(filepath.Join(s.Dir, "redis.log")); err == nil && int64(len(log)) >= off {
		b.Write(log[off:])
	}
	return b.String()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// tlsConfig is the client TLS configuration for s, nil without TLS.
func (s *Server) tlsConfig() *tls.Config {
	if s.tls == nil {
		return nil
	}
	return s.tls.ca.ClientConfig(s.bindHost())
}

// Options returns go-redis options for s, with TLS for a node of a cluster
// started WithTLS.
func (s *Server) Options() *redis.Options {
	return &redis.Options{
		Addr:                     s.Addr,
		TLSConfig:                s.tlsConfig(),
		Password:                 s.Password,
		DialTimeout:              2 * time.Second,
		ReadTimeout:              commandTimeout,
		WriteTimeout:             commandTimeout,
		DisableIdentity:          true,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}

// Client returns a go-redis client for s, closed when the test ends.
func (s *Server) Client(t testing.TB) *redis.Client {
	c := redis.NewClient(s.Options())
	t.Cleanup(func() { c.Close() })
	return c
}

// do sends one command on the helper's own connection to s.
func (s *Server) do(args ...any) (any, error) {
	s.mu.Lock()
	if s.proc == nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("redis-server %s is not running", s.Addr)
	}
	if s.admin == nil {
		o := s.Options()
		o.Protocol = 2
		o.MaxRetries = -1
		o.PoolSize = 2
		s.admin = redis.NewClient(o)
	}
	c := s.admin
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	v, err := c.Do(ctx, args...).Result()
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", commandName(args), s.Addr, err)
	}
	return v, nil
}

func (s *Server) doString(args ...any) (string, error) {
	v, err := s.do(args...)
	if err != nil {
		return "", err
	}
	str, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s on %s: reply is %T, not a string", commandName(args), s.Addr, v)
	}
	return str, nil
}

// commandName names a command for an error message: "MIGRATE", or
// "CLUSTER SETSLOT" for a container command.
func commandName(args []any) string {
	if len(args) == 0 {
		return ""
	}
	name := strings.ToUpper(fmt.Sprint(args[0]))
	if len(args) > 1 && (name == "CLUSTER" || name == "CONFIG") {
		name += " " + strings.ToUpper(fmt.Sprint(args[1]))
	}
	return name
}
