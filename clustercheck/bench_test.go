package clustercheck_test

// Benchmarks of the runtime checker, each against its reference measured in
// the same run: Verify against redis-benchmark's pipelined CLUSTER KEYSLOT,
// Audit against redis-cli --scan, and the hook against an unhooked client.
// clustercheck/bench.sh runs them; BENCHMARKS.md records the figures.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/internal/redistest"
)

// cpuTime returns the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func port(addr string) string {
	i := strings.LastIndexByte(addr, ':')
	return addr[i+1:]
}

var rpsRE = regexp.MustCompile(`([0-9.]+) requests per second`)

// redisBenchmark runs redis-benchmark -q with args and returns its rate.
func redisBenchmark(b *testing.B, args ...string) float64 {
	path, err := exec.LookPath("redis-benchmark")
	if err != nil {
		b.Skip("redis-benchmark not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, append([]string{"-q"}, args...)...).CombinedOutput()
	if err != nil {
		b.Fatalf("redis-benchmark: %v: %s", err, out)
	}
	m := rpsRE.FindAllSubmatch(out, -1)
	if len(m) == 0 {
		b.Fatalf("redis-benchmark printed no rate: %s", out)
	}
	rps, _ := strconv.ParseFloat(string(m[len(m)-1][1]), 64)
	return rps
}

// BenchmarkVerify: keys/s of Verify on one node, and on the cluster client,
// over redis-benchmark -P 16 -n 200000 CLUSTER KEYSLOT foo on one node.
func BenchmarkVerify(b *testing.B) {
	cl := redistest.Shared(b)
	ctx := context.Background()
	keys := make([]string, 200000)
	for i := range keys {
		keys[i] = fmt.Sprintf("user:{%d}:cart:%d", i%5000, i)
	}
	ref := redisBenchmark(b, "-p", port(cl.Nodes[0].Addr), "-P", "16", "-n", "200000", "CLUSTER", "KEYSLOT", "foo")
	for name, c := range map[string]redis.UniversalClient{
		"node":    cl.Nodes[0].Client(b),
		"cluster": cl.Client(b),
	} {
		b.Run(name, func(b *testing.B) {
			if _, err := clustercheck.Verify(ctx, c, keys[:1000]); err != nil { // warm up
				b.Fatal(err)
			}
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				res, err := clustercheck.Verify(ctx, c, keys)
				if err != nil || res.Mismatches > 0 {
					b.Fatal(err, res.Err())
				}
			}
			rate := float64(b.N*len(keys)) / time.Since(start).Seconds()
			b.ReportMetric(rate, "keys/s")
			b.ReportMetric(ref, "redis-benchmark-rps")
			b.ReportMetric(rate/ref, "ratio")
		})
	}
}

var auditData struct {
	once sync.Once
	err  error
}

// loadAuditData fills the shared cluster with n keys of three families,
// through pipelined SETs on each master.
func loadAuditData(b *testing.B, cl *redistest.Cluster, n int) {
	auditData.once.Do(func() {
		ctx := context.Background()
		c := cl.Client(b)
		if err := cl.FlushAll(); err != nil {
			auditData.err = err
			return
		}
		const batch = 2000
		var wg sync.WaitGroup
		var mu sync.Mutex
		workers := 4
		for w := range workers {
			wg.Go(func() {
				for i := w * batch; i < n; i += workers * batch {
					_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
						for j := i; j < min(i+batch, n); j++ {
							var k string
							switch j % 10 {
							case 0:
								k = fmt.Sprintf("emq:{q%d}:pending:%d", j%997, j)
							case 1:
								k = fmt.Sprintf("session:%d", j)
							default:
								k = fmt.Sprintf("emq:{q%d}:job:%d", j%997, j)
							}
							p.Set(ctx, k, "v", 0)
						}
						return nil
					})
					if err != nil {
						mu.Lock()
						auditData.err = err
						mu.Unlock()
						return
					}
				}
			})
		}
		wg.Wait()
	})
	if auditData.err != nil {
		b.Fatal(auditData.err)
	}
}

// scanRef times redis-cli --scan on every master, one after the other and
// all at once, and returns the keys/s of each.
func scanRef(b *testing.B, cl *redistest.Cluster) (seq, par float64) {
	path, err := exec.LookPath("redis-cli")
	if err != nil {
		b.Skip("redis-cli not on PATH")
	}
	scan := func(addr string) int {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		// redis-cli 7.0 has no --count: it scans with SCAN's default COUNT.
		out, err := exec.CommandContext(ctx, path, "-p", port(addr), "--scan").Output()
		if err != nil {
			b.Fatalf("redis-cli --scan: %v", err)
		}
		return strings.Count(string(out), "\n")
	}
	total := 0
	start := time.Now()
	for _, n := range cl.Nodes {
		total += scan(n.Addr)
	}
	seq = float64(total) / time.Since(start).Seconds()
	start = time.Now()
	var wg sync.WaitGroup
	for _, n := range cl.Nodes {
		wg.Go(func() { scan(n.Addr) })
	}
	wg.Wait()
	par = float64(total) / time.Since(start).Seconds()
	return seq, par
}

// BenchmarkAudit: keys/s of Audit over 1,000,000 keys (SLOTLINT_AUDIT_KEYS
// to change it), without and with key families, against redis-cli --scan
// on every master.
func BenchmarkAudit(b *testing.B) {
	n := 1000000
	if v, err := strconv.Atoi(os.Getenv("SLOTLINT_AUDIT_KEYS")); err == nil && v > 0 {
		n = v
	}
	cl := redistest.Shared(b)
	loadAuditData(b, cl, n)
	ctx := context.Background()
	seq, par := scanRef(b, cl)
	for _, withRules := range []bool{false, true} {
		name := "plain"
		var opt clustercheck.AuditOptions
		if withRules {
			name = "families"
			opt.Rules = testRules(b)
		}
		b.Run(name, func(b *testing.B) {
			c := cl.Client(b)
			start := time.Now()
			for range b.N {
				r, err := clustercheck.Audit(ctx, c, opt)
				if err != nil {
					b.Fatal(err)
				}
				if r.Keys != int64(n) {
					b.Fatalf("counted %d keys of %d", r.Keys, n)
				}
			}
			rate := float64(b.N*n) / time.Since(start).Seconds()
			b.ReportMetric(rate, "keys/s")
			b.ReportMetric(seq, "redis-cli-seq-keys/s")
			b.ReportMetric(par, "redis-cli-par-keys/s")
			b.ReportMetric(rate/seq, "ratio-seq")
			b.ReportMetric(rate/par, "ratio-par")
		})
	}
}

// BenchmarkHookRoundTrip: commands against a standalone server through a
// client with and without the hook, in wall time and in CPU time of this
// process per command.
func BenchmarkHookRoundTrip(b *testing.B) {
	s := redistest.StartStandalone(b)
	ctx := context.Background()
	cases := []struct {
		name string
		run  func(c *redis.Client) error
	}{
		{"GET", func(c *redis.Client) error { return ignoreNil(c.Get(ctx, "{k}1").Err()) }},
		{"MGET3", func(c *redis.Client) error { return c.MGet(ctx, "{k}1", "{k}2", "{k}3").Err() }},
		{"Pipeline10", func(c *redis.Client) error {
			_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
				for i := range 10 {
					p.Set(ctx, "p"+strconv.Itoa(i), "v", 0)
				}
				return nil
			})
			return err
		}},
		{"Tx10", func(c *redis.Client) error {
			_, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
				for i := range 10 {
					p.Incr(ctx, "{t}"+strconv.Itoa(i))
				}
				return nil
			})
			return err
		}},
		{"Watch", func(c *redis.Client) error { return watchIncr(ctx, c) }},
	}
	// Plain and hooked clients take turns, a block of commands each, so
	// that both see the same load from the rest of the machine; the medians
	// of the blocks give the figures.
	const block = 32
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			plain := redis.NewClient(s.Options())
			defer plain.Close()
			hooked := redis.NewClient(s.Options())
			defer hooked.Close()
			hooked.AddHook(clustercheck.NewHook())
			for range 100 { // warm up: connections, COMMAND
				if err := tc.run(plain); err != nil {
					b.Fatal(err)
				}
				if err := tc.run(hooked); err != nil {
					b.Fatal(err)
				}
			}
			var wall [2][]float64
			var cpu [2]time.Duration
			b.ResetTimer()
			for n := 0; n < b.N; n += block {
				for i, c := range []*redis.Client{plain, hooked} {
					t0, c0 := time.Now(), cpuTime()
					for range block {
						if err := tc.run(c); err != nil {
							b.Fatal(err)
						}
					}
					wall[i] = append(wall[i], float64(time.Since(t0).Nanoseconds())/block)
					cpu[i] += cpuTime() - c0
				}
			}
			pw, hw := median(wall[0]), median(wall[1])
			// CPU time is accounted in ticks: sum it, not per block.
			ops := float64(len(wall[0]) * block)
			pc, hc := float64(cpu[0].Nanoseconds())/ops, float64(cpu[1].Nanoseconds())/ops
			b.ReportMetric(pw, "plain-ns/op")
			b.ReportMetric(hw, "hooked-ns/op")
			b.ReportMetric(100*(hw/pw-1), "overhead-%")
			b.ReportMetric(pc, "plain-cpu-ns/op")
			b.ReportMetric(hc, "hooked-cpu-ns/op")
		})
	}
}

// watchIncr is an optimistic increment: WATCH, GET, MULTI SET EXEC.
func watchIncr(ctx context.Context, c *redis.Client) error {
	return c.Watch(ctx, func(tx *redis.Tx) error {
		v, err := tx.Get(ctx, "{w}n").Result()
		if err != nil && err != redis.Nil {
			return err
		}
		n, _ := strconv.Atoi(v)
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "{w}n", n+1, 0)
			return nil
		})
		return err
	}, "{w}n")
}

// endHook answers every command itself, without a server: a client whose
// last hook it is measures the cost of the client and the hooks before it.
type endHook struct{}

func (endHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (endHook) ProcessHook(redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { return nil }
}
func (endHook) ProcessPipelineHook(redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { return nil }
}

// BenchmarkHookWatchCPU: the hook's own CPU time per Watch call (WATCH,
// GET, MULTI SET EXEC: go-redis builds a hook chain for each transaction),
// as the difference between a client with the hook and one without, both
// answered by endHook instead of a server, taking turns in one run.
func BenchmarkHookWatchCPU(b *testing.B) {
	ctx := context.Background()
	opts := &redis.Options{Addr: "127.0.0.1:1", DisableIdentity: true}
	plain := redis.NewClient(opts)
	defer plain.Close()
	plain.AddHook(endHook{})
	hooked := redis.NewClient(opts)
	defer hooked.Close()
	hooked.AddHook(clustercheck.NewHook(clustercheck.LocalSpecs()))
	hooked.AddHook(endHook{})
	const block = 64
	var ns [2][]float64
	b.ReportAllocs()
	for n := 0; n < b.N; n += block {
		for i, c := range []*redis.Client{plain, hooked} {
			t0 := time.Now()
			for range block {
				if err := watchIncr(ctx, c); err != nil {
					b.Fatal(err)
				}
			}
			ns[i] = append(ns[i], float64(time.Since(t0).Nanoseconds())/block)
		}
	}
	p, h := median(ns[0]), median(ns[1])
	b.ReportMetric(p, "plain-ns/op")
	b.ReportMetric(h, "hooked-ns/op")
	b.ReportMetric(h-p, "hook-ns/op")
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func ignoreNil(err error) error {
	if err == redis.Nil {
		return nil
	}
	return err
}

// BenchmarkHookCPU: the hook's own CPU time per command, with a next hook
// that does nothing: what the hook adds to each command.
func BenchmarkHookCPU(b *testing.B) {
	ctx := context.Background()
	// The script EVALSHA2 runs, whose source the hook has (WithScripts).
	const src = `redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[2])`
	h := clustercheck.NewHook(clustercheck.LocalSpecs(), clustercheck.WithScripts(src))
	noop := func(context.Context, redis.Cmder) error { return nil }
	noopPipe := func(context.Context, []redis.Cmder) error { return nil }
	process := h.ProcessHook(noop)
	pipeline := h.ProcessPipelineHook(noopPipe)
	get := redis.NewStringCmd(ctx, "get", "{k}1")
	set := redis.NewStatusCmd(ctx, "set", "{k}1", "v", "ex", 10)
	mget := redis.NewSliceCmd(ctx, "mget", "{k}1", "{k}2", "{k}3")
	rename := redis.NewStatusCmd(ctx, "rename", "{k}1", "{k}2")
	evalsha := redis.NewCmd(ctx, "evalsha", redis.NewScript(src).Hash(), 2, "{k}1", "{k}2", "a")
	var tx []redis.Cmder
	tx = append(tx, redis.NewStatusCmd(ctx, "multi"))
	for i := range 10 {
		tx = append(tx, redis.NewIntCmd(ctx, "incr", "{t}"+strconv.Itoa(i)))
	}
	tx = append(tx, redis.NewSliceCmd(ctx, "exec"))
	for _, tc := range []struct {
		name string
		cmd  redis.Cmder
	}{{"GET", get}, {"SET", set}, {"MGET3", mget}, {"RENAME", rename}, {"EVALSHA2", evalsha}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if err := process(ctx, tc.cmd); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The same script with other keys at each call: the hook remembers
	// 1,024 calls found fine (maxCleanCalls), so 1 call in 64 is repeated.
	b.Run("EVALSHA2-new", func(b *testing.B) {
		b.ReportAllocs()
		cmds := make([]redis.Cmder, 1<<16)
		for i := range cmds {
			tag := "{k" + strconv.Itoa(i) + "}"
			cmds[i] = redis.NewCmd(ctx, "evalsha", redis.NewScript(src).Hash(), 2, tag+"1", tag+"2", "a")
		}
		b.ResetTimer()
		for i := range b.N {
			if err := process(ctx, cmds[i%len(cmds)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Tx10", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if err := pipeline(ctx, tx); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10), "ns/cmd")
	})
}
