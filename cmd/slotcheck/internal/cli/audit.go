package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/internal/jsonout"
	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
)

const auditHelp = `slotcheck audit: look at every key of a cluster, read-only.

Usage:
  slotcheck audit --addr HOST:PORT [--match PATTERN] [--rules FILE] [--rate N] [--json]
                  [--fail-on orphans,broken-hashtag,unmatched]

audit SCANs every master (or the one standalone server) and reports:
  - keys that match no key family of the rules (when the rules have some);
  - keys whose hashtag is broken: empty "{}", or a '{' without '}' after it,
    which make Redis hash the whole key;
  - how keys spread over masters and slots: a histogram, the hot slots, and
    the skew (the fullest slot or master over the mean);
  - keys found on a master that does not serve their slot.
It sends only SCAN, DBSIZE, CLUSTER, INFO, COMMAND and connection commands.
Slots that move during the audit are counted again at its end, so each key
that exists throughout is counted once; the report lists the masters at the
end, and says what changed (a failover, slots moved). Nodes are known by
their node IDs, whatever endpoint the cluster announces. The first node that
fails stops the audit. A progress bar shows on stderr when it is a terminal.

audit exits with status 0 whatever it finds, unless --fail-on names kinds
of problem that make it exit with status 1 when found, for CI:
  orphans          keys on a master that does not serve their slot
  broken-hashtag   keys with an empty "{}" or a '{' without '}'
  unmatched        keys that match no key family of the rules

Examples:
  slotcheck audit --addr 127.0.0.1:7000 --rules slotlint.yaml
  slotcheck audit --addr 127.0.0.1:7000 --match 'emq:*' --rate 50000
  slotcheck audit --addr 127.0.0.1:7000 --json > audit.json
  slotcheck audit --addr 127.0.0.1:7000 --fail-on orphans,broken-hashtag
`

func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("audit", auditHelp+aclHelp(ACLAudit), stdout)
	var cf connFlags
	cf.register(fs, "")
	match := fs.String("match", "", "SCAN MATCH pattern: audit only the keys it matches")
	rulesFile := fs.String("rules", "", "rules file merged over the built-in rules, for the key families")
	rate := fs.Float64("rate", 0, "read at most N keys per second (0: no limit)")
	count := fs.Int64("count", 1000, "SCAN COUNT hint")
	asJSON := fs.Bool("json", false, "write JSON")
	failOn := fs.StringSlice("fail-on", nil, "exit 1 when the audit finds these: orphans, broken-hashtag, unmatched (comma-separated)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if math.IsNaN(*rate) || *rate < 0 || (*rate > 0 && *rate < 1) || *rate > maxRate {
		return usagef("--rate %v: give 0 (no limit) or a number of keys a second from 1 to %d", *rate, int64(maxRate))
	}
	if *count < 1 {
		return usagef("--count must be at least 1")
	}
	for _, f := range *failOn {
		if !failKinds[f] {
			return usagef("--fail-on %q: the kinds are orphans, broken-hashtag and unmatched", f)
		}
	}
	if err := cf.check(); err != nil {
		return err
	}
	rules, err := slotlint.LoadRules(*rulesFile)
	if err != nil {
		return &inputError{err}
	}
	cn, err := cf.connect(ctx, false)
	if err != nil {
		return err
	}
	defer cn.Close()
	opt := clustercheck.AuditOptions{Match: *match, Rules: rules, Rate: *rate, Count: *count}
	var bar *progressBar
	if isTerminal(stderr) {
		bar = &progressBar{w: stderr, start: time.Now()}
		opt.Progress = bar.update
	}
	if testProgress != nil {
		opt.Progress = testProgress
	}
	r, err := clustercheck.Audit(ctx, cn.client, opt)
	if bar != nil {
		bar.clear()
	}
	if err != nil {
		return fmt.Errorf("audit stopped: %w", err)
	}
	if *asJSON {
		if err := writeAuditJSON(stdout, r, rules); err != nil {
			return err
		}
	} else {
		writeAuditText(stdout, cn, r)
	}
	return failures(r, *failOn)
}

// maxRate is the highest --rate: far above what one client can read.
const maxRate = 1e8

var failKinds = map[string]bool{"orphans": true, "broken-hashtag": true, "unmatched": true}

// failures returns a mismatchError naming the problems of r that --fail-on
// names, or nil.
func failures(r *clustercheck.AuditReport, failOn []string) error {
	var found []string
	for _, f := range failOn {
		switch f {
		case "orphans":
			if r.Orphans.Keys > 0 {
				found = append(found, fmt.Sprintf("%s keys on a master that does not serve their slot", thousands(r.Orphans.Keys)))
			}
		case "broken-hashtag":
			if n := r.EmptyTag.Keys + r.UnclosedTag.Keys; n > 0 {
				found = append(found, fmt.Sprintf("%s keys with a broken hashtag", thousands(n)))
			}
		case "unmatched":
			if r.Unmatched.Keys > 0 {
				found = append(found, fmt.Sprintf("%s keys that match no key family", thousands(r.Unmatched.Keys)))
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	return &mismatchError{"found " + strings.Join(found, ", ") + " (--fail-on)"}
}

// testProgress, when set by a test, replaces the progress bar.
var testProgress func(clustercheck.AuditProgress)

// A progressBar draws the audit's progress on a terminal.
type progressBar struct {
	w     io.Writer
	start time.Time
	last  time.Time
	drawn bool
}

func (b *progressBar) update(p clustercheck.AuditProgress) {
	now := time.Now()
	if now.Sub(b.last) < 100*time.Millisecond && p.Done < p.Nodes {
		return
	}
	b.last = now
	fmt.Fprint(b.w, "\r"+progressLine(p, now.Sub(b.start)))
	b.drawn = true
}

// progressWidth is the most columns the progress line takes: it stays on one
// line of an 80-column terminal.
const progressWidth = 79

// progressLine is the progress bar's text, at most progressWidth runes:
// "[=====     ]  42% 1.2M/2.9M keys  310k keys/s  1/3 masters".
func progressLine(p clustercheck.AuditProgress, elapsed time.Duration) string {
	rate := float64(p.Keys) / max(elapsed.Seconds(), 1e-3)
	tail := fmt.Sprintf("%s keys/s  %d/%d masters", compact(int64(rate)), p.Done, p.Nodes)
	var line string
	if p.Total > 0 {
		const width = 20
		frac := min(float64(p.Keys)/float64(p.Total), 1)
		n := int(frac * width)
		line = fmt.Sprintf("[%s%s] %3.0f%% %s/%s keys  %s", strings.Repeat("=", n), strings.Repeat(" ", width-n), frac*100, compact(p.Keys), compact(p.Total), tail)
	} else {
		line = fmt.Sprintf("%s keys  %s", compact(p.Keys), tail)
	}
	if r := []rune(line); len(r) > progressWidth {
		line = string(r[:progressWidth])
	}
	// Pad, to cover a longer line drawn before.
	return line + strings.Repeat(" ", progressWidth-len([]rune(line)))
}

// compact writes n in at most 5 characters: 999, 12.3k, 4.5M, 1.2G.
func compact(n int64) string {
	f := float64(n)
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case f < 1e6:
		return strconv.FormatFloat(f/1e3, 'f', 1-min(int(math.Log10(f/1e3)), 1), 64) + "k"
	case f < 1e9:
		return strconv.FormatFloat(f/1e6, 'f', 1-min(int(math.Log10(f/1e6)), 1), 64) + "M"
	}
	return strconv.FormatFloat(f/1e9, 'f', 1, 64) + "G"
}

func (b *progressBar) clear() {
	if b.drawn {
		fmt.Fprint(b.w, "\r\033[K")
	}
}

// thousands formats n with thousands separators.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// histogramRows is the number of rows of the slot histogram.
const histogramRows = 32

// slotBuckets sums keys per bucket of slot.Count/histogramRows slots.
func slotBuckets(r *clustercheck.AuditReport) []int64 {
	per := slot.Count / histogramRows
	out := make([]int64, histogramRows)
	for s, n := range r.SlotKeys {
		out[s/per] += n
	}
	return out
}

func bar(n, most int64, width int) string {
	if most <= 0 || n <= 0 {
		return ""
	}
	full := int(float64(n) / float64(most) * float64(width) * 8)
	s := strings.Repeat("█", full/8)
	if rest := full % 8; rest > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[rest-1])
	}
	if s == "" {
		s = "▏"
	}
	return s
}

func writeAuditText(w io.Writer, cn *conn, r *clustercheck.AuditReport) {
	kind := "standalone server"
	if cn.cluster {
		kind = fmt.Sprintf("cluster of %d masters", len(r.Nodes))
	}
	rate := float64(r.Keys) / max(r.Elapsed.Seconds(), 1e-6)
	fmt.Fprintf(w, "audit of %s (%s): %s keys in %s (%s keys/s)\n", cn.addr, kind, thousands(r.Keys), r.Elapsed.Round(time.Millisecond), thousands(int64(rate)))

	if len(r.Changes) > 0 {
		fmt.Fprintln(w, "\nthe cluster changed during the audit; the masters below are those at its end:")
		for _, c := range r.Changes {
			fmt.Fprintf(w, "  %s\n", c)
		}
	}

	fmt.Fprintln(w, "\nkeys per master")
	var most int64
	for _, n := range r.Nodes {
		most = max(most, n.Keys)
	}
	for _, n := range r.Nodes {
		pct := 0.0
		if r.Keys > 0 {
			pct = 100 * float64(n.Keys) / float64(r.Keys)
		}
		fmt.Fprintf(w, "  %-21s %5d slots %12s keys %5.1f%%  %s\n", n.Addr, n.Slots, thousands(n.Keys), pct, bar(n.Keys, most, 30))
	}
	if cn.cluster {
		fmt.Fprintf(w, "  master skew %.2f (fullest master over the mean; 1 is even)\n", r.NodeSkew())
	}

	fmt.Fprintf(w, "\nkeys over slots (%d slots a row)\n", slot.Count/histogramRows)
	buckets := slotBuckets(r)
	most = 0
	for _, n := range buckets {
		most = max(most, n)
	}
	per := slot.Count / histogramRows
	for i, n := range buckets {
		fmt.Fprintf(w, "  %5d-%5d %12s  %s\n", i*per, (i+1)*per-1, thousands(n), bar(n, most, 40))
	}
	fmt.Fprintf(w, "  slot skew %.1f (fullest slot over the mean of %.1f keys a slot)\n", r.SlotSkew(), float64(r.Keys)/slot.Count)
	if hot := r.HotSlots(5); len(hot) > 0 {
		parts := make([]string, len(hot))
		for i, h := range hot {
			parts[i] = fmt.Sprintf("%d (%s keys)", h.Slot, thousands(h.Keys))
		}
		fmt.Fprintf(w, "  hot slots: %s\n", strings.Join(parts, ", "))
	}

	if r.Classified {
		fmt.Fprintln(w, "\nkey families")
		for _, f := range r.Families {
			fmt.Fprintf(w, "  %-16s %-36s %12s keys  %5d slots %3d masters\n", f.Name, strconv.Quote(f.Template), thousands(f.Keys), f.Slots, f.Masters)
		}
		fmt.Fprintf(w, "  %-16s %-36s %12s keys%s\n", "(none)", "matches no family", thousands(r.Unmatched.Keys), examples(r.Unmatched))
		if empty := r.EmptyFamilies(); len(empty) > 0 {
			fmt.Fprintf(w, "  families with no live key: %s\n", strings.Join(empty, ", "))
		}
	} else {
		fmt.Fprintln(w, "\nkey families: the rules define none; give slotcheck your rules with --rules FILE")
	}
	fmt.Fprintln(w, "\nbroken hashtags")
	fmt.Fprintf(w, "  %-30s %12s keys%s\n", `empty "{}"`, thousands(r.EmptyTag.Keys), examples(r.EmptyTag))
	fmt.Fprintf(w, "  %-30s %12s keys%s\n", `'{' without '}'`, thousands(r.UnclosedTag.Keys), examples(r.UnclosedTag))
	if r.Orphans.Keys > 0 {
		fmt.Fprintf(w, "\nkeys on a master that does not serve their slot: %s%s\n", thousands(r.Orphans.Keys), examples(r.Orphans))
	}
	if len(r.Recounted) > 0 {
		fmt.Fprintf(w, "\nslots that moved during the audit, counted again at its end: %s\n", intList(r.Recounted, 20))
	}
	if r.IncompatibleOpsKnown {
		fmt.Fprintf(w, "\ncommands a cluster would refuse, as the server counts them (cluster_incompatible_ops, Redis 8): %s\n", thousands(r.IncompatibleOps))
		if r.IncompatibleOps > 0 {
			fmt.Fprintln(w, "  the server counts cross-slot commands, SELECT, SWAPDB, MOVE and COPY to another database, and no-cluster scripts, but not which code sent them; run slotlint on the code, and the clustercheck hook in its tests, to find them")
		}
	}
}

func examples(p clustercheck.Problem) string {
	if len(p.Examples) == 0 {
		return ""
	}
	q := make([]string, len(p.Examples))
	for i, e := range p.Examples {
		q[i] = showKey(e)
	}
	return "  e.g. " + strings.Join(q, ", ")
}

func intList(xs []int, most int) string {
	parts := make([]string, 0, most)
	for i, x := range xs {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more", len(xs)-most))
			break
		}
		parts = append(parts, strconv.Itoa(x))
	}
	return strings.Join(parts, ", ")
}

func writeAuditJSON(w io.Writer, r *clustercheck.AuditReport, rules *ruleset.Rules) error {
	type problem struct {
		Keys     int64     `json:"keys"`
		Examples []jsonKey `json:"examples"`
	}
	conv := func(p clustercheck.Problem) problem {
		ex := make([]jsonKey, len(p.Examples))
		for i, e := range p.Examples {
			ex[i] = jsonKey(e)
		}
		return problem{p.Keys, ex}
	}
	type node struct {
		Addr  string `json:"addr"`
		ID    string `json:"id,omitempty"`
		Slots int    `json:"slots"`
		Keys  int64  `json:"keys"`
	}
	type family struct {
		Name     string `json:"name"`
		Template string `json:"template"`
		Keys     int64  `json:"keys"`
		Slots    int    `json:"slots"`
		Masters  int    `json:"masters"`
	}
	type hot struct {
		Slot int   `json:"slot"`
		Keys int64 `json:"keys"`
	}
	out := struct {
		KeyEncoding    string           `json:"key_encoding"`
		Keys           int64            `json:"keys"`
		ElapsedSeconds float64          `json:"elapsed_seconds"`
		KeysPerSecond  float64          `json:"keys_per_second"`
		Nodes          []node           `json:"nodes"`
		NodeSkew       float64          `json:"node_skew"`
		SlotSkew       float64          `json:"slot_skew"`
		HotSlots       []hot            `json:"hot_slots"`
		SlotHistogram  []int64          `json:"slot_histogram"`
		SlotKeys       map[string]int64 `json:"slot_keys"`
		Classified     bool             `json:"classified"`
		Families       []family         `json:"families"`
		EmptyFamilies  []string         `json:"empty_families"`
		Unmatched      problem          `json:"unmatched"`
		EmptyHashtag   problem          `json:"empty_hashtag"`
		Unclosed       problem          `json:"unclosed_hashtag"`
		Orphans        problem          `json:"orphans"`
		Recounted      []int            `json:"recounted_slots"`
		Changes        []string         `json:"changes"`
		// IncompatibleOps is Redis 8's cluster_incompatible_ops, null
		// when the server does not count them.
		IncompatibleOps *int64 `json:"cluster_incompatible_ops"`
	}{
		KeyEncoding: keyEncoding,
		Keys:        r.Keys, ElapsedSeconds: r.Elapsed.Seconds(),
		KeysPerSecond: float64(r.Keys) / max(r.Elapsed.Seconds(), 1e-9),
		NodeSkew:      r.NodeSkew(), SlotSkew: r.SlotSkew(),
		SlotHistogram: slotBuckets(r), SlotKeys: map[string]int64{},
		Classified: r.Classified, Families: []family{},
		Unmatched: conv(r.Unmatched), EmptyHashtag: conv(r.EmptyTag), Unclosed: conv(r.UnclosedTag), Orphans: conv(r.Orphans),
		Recounted: append([]int{}, r.Recounted...), Nodes: []node{}, HotSlots: []hot{},
		Changes: append([]string{}, r.Changes...),
	}
	if r.IncompatibleOpsKnown {
		out.IncompatibleOps = &r.IncompatibleOps
	}
	for _, n := range r.Nodes {
		out.Nodes = append(out.Nodes, node{n.Addr, n.ID, n.Slots, n.Keys})
	}
	for _, h := range r.HotSlots(20) {
		out.HotSlots = append(out.HotSlots, hot{h.Slot, h.Keys})
	}
	for s, n := range r.SlotKeys {
		if n > 0 {
			out.SlotKeys[strconv.Itoa(s)] = n
		}
	}
	for _, f := range r.Families {
		out.Families = append(out.Families, family{f.Name, f.Template, f.Keys, f.Slots, f.Masters})
	}
	out.EmptyFamilies = append([]string{}, r.EmptyFamilies()...)
	_ = rules
	enc := jsonout.NewEncoder(w)
	return enc.Encode(out)
}
