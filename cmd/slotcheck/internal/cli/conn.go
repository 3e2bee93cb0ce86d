package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
	"github.com/spf13/pflag"

	"github.com/slotlint/slotlint/clustercheck"
)

// PasswordEnv is the environment variable the password is read from, as
// redis-cli does.
const PasswordEnv = "REDISCLI_AUTH"

// connFlags are the flags of every command that talks to a server.
type connFlags struct {
	addr     string
	cluster  bool
	user     string
	useTLS   bool
	cacert   string
	cert     string
	key      string
	insecure bool
	timeout  time.Duration
}

func (c *connFlags) register(fs *pflag.FlagSet, addrDefault string) {
	fs.StringVar(&c.addr, "addr", addrDefault, "server address HOST:PORT, a standalone server or any node of a cluster")
	fs.BoolVar(&c.cluster, "cluster", false, "treat the server as a cluster node without asking INFO cluster")
	fs.StringVar(&c.user, "user", "", "ACL user name; the password comes from $"+PasswordEnv)
	fs.BoolVar(&c.useTLS, "tls", false, "connect with TLS")
	fs.StringVar(&c.cacert, "cacert", "", "CA certificate file (PEM) to verify the servers with; each node is checked against its own address")
	fs.StringVar(&c.cert, "cert", "", "client certificate file (PEM)")
	fs.StringVar(&c.key, "key", "", "client private key file (PEM)")
	fs.BoolVar(&c.insecure, "insecure", false, "with --tls, do not verify the server's certificate")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Second, "limit on every call to a server")
}

// check checks the flags before any connection is tried.
func (c *connFlags) check() error {
	if c.addr == "" {
		return usagef("--addr is required")
	}
	host, port, err := net.SplitHostPort(c.addr)
	if err != nil || host == "" {
		return usagef("--addr %q is not HOST:PORT", c.addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return usagef("--addr %q: the port must be a number from 1 to 65535", c.addr)
	}
	if c.timeout <= 0 {
		return usagef("--timeout %v: it must be more than 0", c.timeout)
	}
	return nil
}

// A conn is a connection to a server or cluster.
type conn struct {
	client  redis.UniversalClient
	cluster bool
	addr    string
	closers []func() error
}

func (c *conn) Close() error {
	err := c.client.Close()
	for _, f := range c.closers {
		f()
	}
	return err
}

// tlsConfig builds the TLS configuration of the flags, nil without --tls.
func (c *connFlags) tlsConfig() (*tls.Config, error) {
	if !c.useTLS {
		if c.cacert != "" || c.cert != "" || c.key != "" || c.insecure {
			return nil, usagef("--cacert, --cert, --key and --insecure need --tls")
		}
		return nil, nil
	}
	host, _, err := net.SplitHostPort(c.addr)
	if err != nil {
		return nil, usagef("--addr %q: %v", c.addr, err)
	}
	// ServerName is the --addr host here; every other node is checked
	// against its own host (nodeClient).
	cfg := &tls.Config{ServerName: host, InsecureSkipVerify: c.insecure, MinVersion: tls.VersionTLS12}
	if c.cacert != "" {
		pem, err := os.ReadFile(c.cacert)
		if err != nil {
			return nil, &inputError{fmt.Errorf("--cacert: %w", err)}
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, &inputError{fmt.Errorf("--cacert %s: no PEM certificate in the file", c.cacert)}
		}
		cfg.RootCAs = pool
	}
	if (c.cert == "") != (c.key == "") {
		return nil, usagef("--cert and --key go together")
	}
	if c.cert != "" {
		pair, err := tls.LoadX509KeyPair(c.cert, c.key)
		if err != nil {
			return nil, &inputError{fmt.Errorf("--cert/--key: %w", err)}
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// nodeClient makes the client of one node of a cluster: with TLS, it checks
// the node's certificate against the node's own host name or address, not
// the --addr one, and a failure to connect names the node.
func nodeClient(o *redis.Options) *redis.Client {
	if o.TLSConfig != nil {
		cfg := o.TLSConfig.Clone()
		if host, _, err := net.SplitHostPort(o.Addr); err == nil && host != "" {
			cfg.ServerName = host
		}
		o.TLSConfig = cfg
	}
	dial := redis.NewDialer(o)
	o.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		cn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, &nodeError{addr: addr, err: err}
		}
		return cn, nil
	}
	return redis.NewClient(o)
}

// A nodeError is a failure to connect to one node of a cluster.
type nodeError struct {
	addr string
	err  error
}

func (e *nodeError) Error() string {
	msg := e.err.Error()
	if strings.Contains(msg, e.addr) { // "dial tcp ADDR: ..."
		return msg
	}
	return "node " + e.addr + ": " + msg
}
func (e *nodeError) Unwrap() error { return e.err }

// shardSlots returns go-redis's ClusterSlots option for a cluster whose
// nodes announce no endpoint (cluster-preferred-endpoint-type
// unknown-endpoint), whose CLUSTER SLOTS go-redis cannot read: the slot
// map comes from CLUSTER SHARDS, and a node without an endpoint is reached
// on the --addr host, as the Redis Cluster specification says.
func shardSlots(seed *redis.Client, seedHost string) func(context.Context) ([]redis.ClusterSlot, error) {
	return func(ctx context.Context) ([]redis.ClusterSlot, error) {
		shards, err := seed.ClusterShards(ctx).Result()
		if err != nil {
			return nil, err
		}
		var out []redis.ClusterSlot
		for _, sh := range shards {
			var nodes []redis.ClusterNode
			for _, n := range sh.Nodes {
				host := n.Endpoint
				if host == "" || host == "?" {
					host = seedHost
				}
				port := n.Port
				if port == 0 {
					port = n.TLSPort
				}
				cn := redis.ClusterNode{ID: n.ID, Addr: net.JoinHostPort(host, strconv.FormatInt(port, 10))}
				if n.Role == "master" {
					nodes = append([]redis.ClusterNode{cn}, nodes...)
				} else {
					nodes = append(nodes, cn)
				}
			}
			for _, r := range sh.Slots {
				out = append(out, redis.ClusterSlot{Start: int(r.Start), End: int(r.End), Nodes: nodes})
			}
		}
		return out, nil
	}
}

// unknownEndpoints reports whether the cluster announces a node without an
// endpoint.
func unknownEndpoints(ctx context.Context, c *redis.Client) bool {
	shards, err := c.ClusterShards(ctx).Result()
	if err != nil {
		return false
	}
	for _, sh := range shards {
		for _, n := range sh.Nodes {
			if n.Endpoint == "" || n.Endpoint == "?" {
				return true
			}
		}
	}
	return false
}

// options returns go-redis options for one server.
func (c *connFlags) options(tlsCfg *tls.Config) *redis.Options {
	return &redis.Options{
		Addr:                     c.addr,
		Username:                 c.user,
		Password:                 os.Getenv(PasswordEnv),
		TLSConfig:                tlsCfg,
		DialTimeout:              c.timeout,
		ReadTimeout:              c.timeout,
		WriteTimeout:             c.timeout,
		MaxRetries:               2,
		PoolSize:                 8,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}

// connect opens the server; needCluster makes a server without cluster
// support an error.
func (c *connFlags) connect(ctx context.Context, needCluster bool) (*conn, error) {
	if c.addr == "" {
		return nil, usagef("--addr is required")
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	tlsCfg, err := c.tlsConfig()
	if err != nil {
		return nil, err
	}
	opt := c.options(tlsCfg)
	single := redis.NewClient(opt)
	cluster := c.cluster
	if !cluster {
		cctx, cancel := context.WithTimeout(ctx, c.timeout)
		info, err := single.Info(cctx, "cluster").Result()
		cancel()
		if err != nil {
			single.Close()
			return nil, connError(c.addr, err)
		}
		cluster = strings.Contains(info, "cluster_enabled:1")
	}
	if !cluster {
		if needCluster {
			single.Close()
			return nil, fmt.Errorf("%s is a standalone server (INFO cluster: cluster_enabled:0): %w", c.addr, clustercheck.ErrNotCluster)
		}
		return &conn{client: single, addr: c.addr}, nil
	}
	copt := &redis.ClusterOptions{
		Addrs:                    []string{c.addr},
		Username:                 opt.Username,
		Password:                 opt.Password,
		TLSConfig:                tlsCfg,
		DialTimeout:              opt.DialTimeout,
		ReadTimeout:              opt.ReadTimeout,
		WriteTimeout:             opt.WriteTimeout,
		MaxRetries:               opt.MaxRetries,
		MaxRedirects:             8,
		PoolSize:                 opt.PoolSize,
		MaintNotificationsConfig: opt.MaintNotificationsConfig,
		NewClient:                nodeClient,
	}
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	unknown := unknownEndpoints(cctx, single)
	cancel()
	if unknown {
		host, _, _ := net.SplitHostPort(c.addr)
		copt.ClusterSlots = shardSlots(single, host)
	}
	cc := redis.NewClusterClient(copt)
	cn := &conn{client: cc, cluster: true, addr: c.addr}
	if unknown {
		cn.closers = append(cn.closers, single.Close)
	} else {
		single.Close()
	}
	if err := checkClusterState(ctx, cn, c.timeout); err != nil {
		cc.Close()
		return nil, err
	}
	return cn, nil
}

// checkClusterState fails on a cluster that reports cluster_state:fail.
func checkClusterState(ctx context.Context, cn *conn, timeout time.Duration) error {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	info, err := cn.client.ClusterInfo(cctx).Result()
	if err != nil {
		return connError(cn.addr, err)
	}
	if !strings.Contains(info, "cluster_state:ok") {
		state := "cluster_state:fail"
		for line := range strings.Lines(info) {
			if strings.HasPrefix(line, "cluster_state:") {
				state = strings.TrimSpace(line)
			}
		}
		return fmt.Errorf("%s reports %s: %w (CLUSTERDOWN); fix the cluster first", cn.addr, state, clustercheck.ErrClusterDown)
	}
	return nil
}

// connError describes a failure to talk to addr.
func connError(addr string, err error) error {
	return &serverError{addr: addr, err: err}
}

type serverError struct {
	addr string
	err  error
}

func (e *serverError) Error() string { return e.addr + ": " + e.err.Error() }
func (e *serverError) Unwrap() error { return e.err }

// explain turns an error into the one line slotcheck prints.
func explain(err error) string {
	msg := err.Error()
	var se *serverError
	var ne *nodeError
	addr := ""
	if errors.As(err, &se) {
		addr = se.addr + ": "
		msg = se.err.Error()
	}
	if errors.As(err, &ne) {
		// The message names the node of the cluster that failed; --addr
		// may be another one.
		addr = ""
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED) && addr != "":
		return fmt.Sprintf("%sconnection refused; is the server running at that address? (%s)", addr, msg)
	case errors.Is(err, syscall.ECONNREFUSED):
		return msg + " (is the node down?)"
	case strings.Contains(msg, "WRONGPASS"):
		return fmt.Sprintf("%sauthentication failed: wrong user name or password in $%s (%s)", addr, PasswordEnv, lastReply(msg))
	case strings.Contains(msg, "NOAUTH"):
		return fmt.Sprintf("%sthe server needs a password: set $%s (%s)", addr, PasswordEnv, lastReply(msg))
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return fmt.Sprintf("%stimed out (--timeout): %s", addr, msg)
	case errors.Is(err, clustercheck.ErrNotCluster):
		return addr + msg + "; this command needs a Redis Cluster"
	}
	return addr + msg
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// lastReply returns the server's reply in an error message.
func lastReply(msg string) string {
	for _, p := range []string{"WRONGPASS", "NOAUTH"} {
		if i := strings.Index(msg, p); i >= 0 {
			return msg[i:]
		}
	}
	return msg
}
