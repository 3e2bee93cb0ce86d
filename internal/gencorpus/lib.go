package main

import (
	"fmt"
	"strings"
)

// A libPkg is a package of plain Go: no Redis in it.
type libPkg struct {
	name, path string
	// strFuncs are its exported func(string) string, for other packages.
	strFuncs []string
	// types are its exported record types with a String method.
	types []string
}

// A snippet is a piece of a plain Go file: its text, the standard packages
// it needs, and what it exports for other packages.
type snippet struct {
	text    string
	std     []string
	strFunc string // an exported func(string) string it declares
	typ     string // an exported type with a String method it declares
	dep     bool   // it calls a strFunc of another package: @dep@
}

var libSnippets = []snippet{
	{text: `
// Map@i@ applies f to every element of xs.
func Map@i@[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Filter@i@ keeps the elements of xs that keep returns true for.
func Filter@i@[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// Reduce@i@ folds xs into one value.
func Reduce@i@[T, A any](xs []T, acc A, f func(A, T) A) A {
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}
`},
	{text: `
// Set@i@ is a set of comparable values.
type Set@i@[T comparable] map[T]struct{}

// Add adds v to the set.
func (s Set@i@[T]) Add(v T) { s[v] = struct{}{} }

// Has reports whether v is in the set.
func (s Set@i@[T]) Has(v T) bool {
	_, ok := s[v]
	return ok
}

// Union returns the values in s or t.
func (s Set@i@[T]) Union(t Set@i@[T]) Set@i@[T] {
	out := make(Set@i@[T], len(s)+len(t))
	for v := range s {
		out.Add(v)
	}
	for v := range t {
		out.Add(v)
	}
	return out
}

// Sorted returns the values of a set of ordered values, in order.
func Sorted@i@[T cmp.Ordered](s Set@i@[T]) []T {
	out := make([]T, 0, len(s))
	for v := range s {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}
`, std: []string{"cmp", "slices"}},
	{text: `
// Slug@i@ turns a title into lower-case words joined by dashes.
func Slug@i@(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
`, std: []string{"strings", "unicode"}, strFunc: "Slug@i@"},
	{text: `
// Item@i@ is a scored item.
type Item@i@ struct {
	Name  string   ` + "`json:\"name\"`" + `
	Score float64  ` + "`json:\"score\"`" + `
	Tags  []string ` + "`json:\"tags,omitempty\"`" + `
}

func (it Item@i@) String() string {
	return fmt.Sprintf("%s(%.2f)", it.Name, it.Score)
}

// Top@i@ returns the n items with the highest scores.
func Top@i@(items []Item@i@, n int) []Item@i@ {
	out := slices.Clone(items)
	sort.SliceStable(out, func(a, b int) bool { return out[a].Score > out[b].Score })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// Parse@i@ reads "name,score,tag,tag".
func Parse@i@(line string) (Item@i@, error) {
	fields := strings.Split(line, ",")
	if len(fields) < 2 {
		return Item@i@{}, fmt.Errorf("parse %q: want name,score", line)
	}
	score, err := strconv.ParseFloat(strings.TrimSpace(fields[1]), 64)
	if err != nil {
		return Item@i@{}, fmt.Errorf("parse %q: %w", line, err)
	}
	return Item@i@{Name: strings.TrimSpace(fields[0]), Score: score, Tags: fields[2:]}, nil
}
`, std: []string{"fmt", "slices", "sort", "strconv", "strings"}, typ: "Item@i@"},
	{text: `
// Checksum@i@ is FNV-1a over b.
func Checksum@i@(b []byte) uint32 {
	var h uint32 = 2166136261
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}

// Bucket@i@ spreads s over n buckets.
func Bucket@i@(s string, n int) int {
	if n <= 0 {
		return 0
	}
	return int(Checksum@i@([]byte(s)) % uint32(n))
}
`},
	{text: `
// Cache@i@ is a small LRU cache safe for concurrent use.
type Cache@i@[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	items map[K]V
	order []K
}

// NewCache@i@ returns a cache of at most max entries.
func NewCache@i@[K comparable, V any](max int) *Cache@i@[K, V] {
	return &Cache@i@[K, V]{max: max, items: make(map[K]V)}
}

// Get returns the value of k.
func (c *Cache@i@[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	if ok {
		c.touch(k)
	}
	return v, ok
}

// Put sets the value of k, evicting the oldest entry when full.
func (c *Cache@i@[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; !ok && len(c.items) >= c.max && len(c.order) > 0 {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
	c.items[k] = v
	c.touch(k)
}

func (c *Cache@i@[K, V]) touch(k K) {
	for i, o := range c.order {
		if o == k {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	c.order = append(c.order, k)
}
`, std: []string{"sync"}},
	{text: `
// Histogram@i@ counts words.
type Histogram@i@ map[string]int

// Add counts the words of text.
func (h Histogram@i@) Add(text string) {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		h[strings.ToLower(w)]++
	}
}

// Most returns the n most frequent words.
func (h Histogram@i@) Most(n int) []string {
	words := make([]string, 0, len(h))
	for w := range h {
		words = append(words, w)
	}
	sort.Slice(words, func(a, b int) bool {
		if h[words[a]] != h[words[b]] {
			return h[words[a]] > h[words[b]]
		}
		return words[a] < words[b]
	})
	if len(words) > n {
		words = words[:n]
	}
	return words
}
`, std: []string{"sort", "strings", "unicode"}},
	{text: `
// State@i@ is the state of an order-like flow.
type State@i@ int

// The states.
const (
	Pending@i@ State@i@ = iota
	Paid@i@
	Shipped@i@
	Closed@i@
)

func (s State@i@) String() string {
	switch s {
	case Pending@i@:
		return "pending"
	case Paid@i@:
		return "paid"
	case Shipped@i@:
		return "shipped"
	case Closed@i@:
		return "closed"
	}
	return "state(" + strconv.Itoa(int(s)) + ")"
}

// Next@i@ is the state after s on event ev.
func Next@i@(s State@i@, ev string) (State@i@, error) {
	switch {
	case s == Pending@i@ && ev == "pay":
		return Paid@i@, nil
	case s == Paid@i@ && ev == "ship":
		return Shipped@i@, nil
	case s != Closed@i@ && ev == "close":
		return Closed@i@, nil
	}
	return s, fmt.Errorf("no transition from %v on %q", s, ev)
}
`, std: []string{"fmt", "strconv"}},
	{text: `
// Mul@i@ multiplies two square matrices.
func Mul@i@(a, b [][]float64) [][]float64 {
	n := len(a)
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, n)
		for j := 0; j < n; j++ {
			var sum float64
			for k := 0; k < n; k++ {
				sum += a[i][k] * b[k][j]
			}
			out[i][j] = sum
		}
	}
	return out
}

// Mean@i@ is the mean and standard deviation of xs.
func Mean@i@(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)))
}
`, std: []string{"math"}},
	{text: `
// Ring@i@ keeps the last values pushed.
type Ring@i@[T any] struct {
	buf  []T
	next int
	full bool
}

// NewRing@i@ returns a ring of n values.
func NewRing@i@[T any](n int) *Ring@i@[T] { return &Ring@i@[T]{buf: make([]T, n)} }

// Push adds v, dropping the oldest value when full.
func (r *Ring@i@[T]) Push(v T) {
	r.buf[r.next] = v
	r.next = (r.next + 1) % len(r.buf)
	if r.next == 0 {
		r.full = true
	}
}

// Values returns the values, oldest first.
func (r *Ring@i@[T]) Values() []T {
	if !r.full {
		return append([]T(nil), r.buf[:r.next]...)
	}
	return append(append([]T(nil), r.buf[r.next:]...), r.buf[:r.next]...)
}
`},
	{text: `
// Backoff@i@ is the delay before attempt n: exponential, capped.
func Backoff@i@(n int, base, limit time.Duration) time.Duration {
	d := base
	for i := 0; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}

// Retry@i@ calls f until it succeeds or attempts run out.
func Retry@i@(ctx context.Context, attempts int, f func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(Backoff@i@(i, time.Millisecond, time.Second)):
		}
	}
	return err
}
`, std: []string{"context", "time"}},
	{text: `
// Expand@i@ replaces ${name} in s with vars[name].
func Expand@i@(s string, vars map[string]string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(vars[s[i+2:i+j]])
		s = s[i+j+1:]
	}
}
`, std: []string{"strings"}},
	{text: `
// Path@i@ joins path segments with '/'.
func Path@i@(parts ...string) string {
	return strings.Join(parts, "/")
}

// Label@i@ is s in brackets.
func Label@i@(s string) string {
	return "[" + strings.ToUpper(s) + "]"
}
`, std: []string{"strings"}, strFunc: "Label@i@"},
	{text: `
// NotFound@i@ is the error for a missing record.
type NotFound@i@ struct {
	Kind, ID string
}

func (e *NotFound@i@) Error() string { return e.Kind + " " + e.ID + " not found" }

// IsNotFound@i@ reports whether err is a NotFound@i@.
func IsNotFound@i@(err error) bool {
	var nf *NotFound@i@
	return errors.As(err, &nf)
}

// Wrap@i@ adds context to err.
func Wrap@i@(err error, what string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}
`, std: []string{"errors", "fmt"}},
	{text: `
// Norm@i@ normalizes s through another package.
func Norm@i@(s string) string {
	return @dep@(strings.TrimSpace(s))
}
`, std: []string{"strings"}, strFunc: "Norm@i@", dep: true},
	{text: `
// Chunk@i@ splits xs into chunks of n.
func Chunk@i@[T any](xs []T, n int) [][]T {
	var out [][]T
	for n > 0 && len(xs) > 0 {
		k := min(n, len(xs))
		out = append(out, xs[:k:k])
		xs = xs[k:]
	}
	return out
}

// Dedup@i@ removes repeated strings, keeping the first of each.
func Dedup@i@(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
`},
	{text: `
// Config@i@ is a service's settings, read from key=value lines.
type Config@i@ struct {
	Name     string
	Workers  int
	Timeout  time.Duration
	Features map[string]bool
}

// ParseConfig@i@ reads a Config@i@.
func ParseConfig@i@(text string) (*Config@i@, error) {
	c := &Config@i@{Workers: 1, Timeout: time.Second, Features: map[string]bool{}}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: want key=value", n+1)
		}
		switch k = strings.TrimSpace(k); k {
		case "name":
			c.Name = strings.TrimSpace(v)
		case "workers":
			w, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || w <= 0 {
				return nil, fmt.Errorf("line %d: bad workers %q", n+1, v)
			}
			c.Workers = w
		case "timeout":
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n+1, err)
			}
			c.Timeout = d
		default:
			c.Features[k] = strings.TrimSpace(v) == "true"
		}
	}
	return c, nil
}
`, std: []string{"fmt", "strconv", "strings", "time"}},
}

// libTest is a test file for a library package with a Slug or Label.
var libTest = `package @name@

import "testing"

func TestChecksum(t *testing.T) {
	for _, s := range []string{"", "a", "hello world"} {
		if Checksum@i@([]byte(s)) != Checksum@i@([]byte(s)) {
			t.Fatalf("checksum of %q is not stable", s)
		}
	}
}
`

func (g *gen) lib() error {
	p := &libPkg{name: fmt.Sprintf("l%03d", len(g.libs))}
	p.path = g.module + "/lib/" + p.name
	deps := recent(g.rng, g.libsWithStrFuncs(), 3, 40)

	var body strings.Builder
	std := []string{}
	used := map[string]bool{}
	n := 6 + g.rng.IntN(14)
	checksum := ""
	for k := range n {
		sn := libSnippets[g.rng.IntN(len(libSnippets))]
		if sn.dep && len(deps) == 0 {
			continue
		}
		id := fmt.Sprint(k)
		text := subst(sn.text, "i", id)
		if sn.dep {
			d := deps[g.rng.IntN(len(deps))]
			text = subst(text, "dep", d.name+"."+d.strFuncs[g.rng.IntN(len(d.strFuncs))])
			used[d.name] = true
		}
		if strings.Contains(text, "func Checksum"+id+"(") {
			checksum = id
		}
		body.WriteString(text)
		std = append(std, sn.std...)
		if sn.strFunc != "" {
			p.strFuncs = append(p.strFuncs, subst(sn.strFunc, "i", id))
		}
		if sn.typ != "" {
			p.types = append(p.types, subst(sn.typ, "i", id))
		}
	}
	var other []string
	for _, d := range deps {
		if used[d.name] {
			other = append(other, fmt.Sprintf("%q", d.path))
		}
	}
	src := "// Package " + p.name + " is plain Go that the services use.\npackage " + p.name + "\n\n" +
		imports(std, other...) + body.String()
	if err := g.add("lib/"+p.name+"/"+p.name+".go", src); err != nil {
		return err
	}
	if checksum != "" && g.rng.IntN(3) == 0 {
		if err := g.add("lib/"+p.name+"/"+p.name+"_test.go", subst(libTest, "name", p.name, "i", checksum)); err != nil {
			return err
		}
	}
	g.libs = append(g.libs, p)
	return nil
}

func (g *gen) libsWithStrFuncs() []*libPkg {
	var out []*libPkg
	for _, l := range g.libs {
		if len(l.strFuncs) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// A modelPkg holds record types.
type modelPkg struct {
	name, path string
	record     string // the exported record type, with ID, Fields and Validate
}

func (g *gen) model() error {
	p := &modelPkg{name: fmt.Sprintf("m%03d", len(g.models))}
	p.path = g.module + "/model/" + p.name
	w := g.word()
	p.record = strings.ToUpper(w[:1]) + w[1:]
	var fields, fieldMap strings.Builder
	nf := 3 + g.rng.IntN(8)
	for k := range nf {
		name := fmt.Sprintf("F%d", k)
		switch k % 3 {
		case 0:
			fmt.Fprintf(&fields, "\t%s string `json:\"f%d\"`\n", name, k)
		case 1:
			fmt.Fprintf(&fields, "\t%s int64 `json:\"f%d\"`\n", name, k)
		case 2:
			fmt.Fprintf(&fields, "\t%s float64 `json:\"f%d,omitempty\"`\n", name, k)
		}
		fmt.Fprintf(&fieldMap, "\t\t%q: r.%s,\n", strings.ToLower(name), name)
	}
	src := subst(`// Package @name@ holds the @word@ records.
package @name@

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// @T@ is one @word@.
type @T@ struct {
	ID      string    `+"`json:\"id\"`"+`
	Owner   string    `+"`json:\"owner\"`"+`
	Created time.Time `+"`json:\"created\"`"+`
	Tags    []string  `+"`json:\"tags,omitempty\"`"+`
@fields@}

// ErrNoID is returned for a @word@ without an ID.
var ErrNoID = errors.New("@word@: no id")

// Validate checks a @word@ before it is stored.
func (r *@T@) Validate() error {
	if r.ID == "" {
		return ErrNoID
	}
	if strings.ContainsAny(r.ID, "{} ") {
		return fmt.Errorf("@word@ %q: id holds a brace or a space", r.ID)
	}
	for i, t := range r.Tags {
		if t == "" {
			return fmt.Errorf("@word@ %s: tag %d is empty", r.ID, i)
		}
	}
	return nil
}

// Fields is the record as hash fields.
func (r *@T@) Fields() map[string]any {
	return map[string]any{
		"id":    r.ID,
		"owner": r.Owner,
@fieldMap@	}
}

// Encode is the record as JSON.
func (r *@T@) Encode() ([]byte, error) {
	return json.Marshal(r)
}

// Decode reads a record from JSON.
func Decode(b []byte) (*@T@, error) {
	var r @T@
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("decode @word@: %w", err)
	}
	return &r, r.Validate()
}

// ByOwner groups records by owner.
func ByOwner(rs []*@T@) map[string][]*@T@ {
	out := make(map[string][]*@T@)
	for _, r := range rs {
		out[r.Owner] = append(out[r.Owner], r)
	}
	return out
}
`, "name", p.name, "word", w, "T", p.record, "fields", fields.String(), "fieldMap", fieldMap.String())
	if err := g.add("model/"+p.name+"/"+p.name+".go", src); err != nil {
		return err
	}
	g.models = append(g.models, p)
	return nil
}
