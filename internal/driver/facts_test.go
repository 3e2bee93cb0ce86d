package driver

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"reflect"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestFactsConcurrently encodes and decodes the facts of many packages at
// once in a process that has registered no fact type yet, as the driver
// does when it starts: every package must come back with its facts, none
// failing with gob's "type not registered for interface". The test runs
// itself again in new processes, because gob's registry lives as long as
// the process and other tests fill it. The race this guards against is
// rare: a registration without the lock failed in about one process in
// fifteen here, so the test starts thirty, and even so it does not catch
// such a registration on every run.
func TestFactsConcurrently(t *testing.T) {
	if os.Getenv("SLOTLINT_FACTS_CHILD") == "" {
		for range 30 {
			cmd := exec.Command(os.Args[0], "-test.run=^TestFactsConcurrently$", "-test.count=1")
			cmd.Env = append(os.Environ(), "SLOTLINT_FACTS_CHILD=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("a new process failed: %v\n%s", err, out)
			}
		}
		return
	}
	const packages = 64
	analyzers := []*analysis.Analyzer{constFunc, manyFacts}
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, packages)
	for i := range packages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = roundTrip(analyzers, i)
		}()
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// roundTrip encodes an object fact and a package fact of package number i
// and decodes them against the same types.
func roundTrip(analyzers []*analysis.Analyzer, i int) error {
	pkg := types.NewPackage(fmt.Sprintf("example.com/p%d", i), fmt.Sprintf("p%d", i))
	fn := types.NewFunc(token.NoPos, pkg, "Name", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	pkg.Scope().Insert(fn)
	pkg.MarkComplete()
	set := newFactSet()
	want := fmt.Sprintf("name%d", i)
	set.obj[objKey{fn, reflect.TypeOf(new(constFact))}] = &constFact{want}
	set.pkg[pkgKey{pkg, reflect.TypeOf(new(countFact))}] = &countFact{i}
	many := newFactSet()
	for _, f := range manyFacts.FactTypes {
		many.pkg[pkgKey{pkg, reflect.TypeOf(f)}] = f
	}
	data, err := encodeFacts(analyzers, pkg, map[*analysis.Analyzer]*factSet{constFunc: set, manyFacts: many})
	if err != nil {
		return err
	}
	sets := decodeFacts(analyzers, pkg, data)
	got := sets[constFunc]
	if got == nil {
		return fmt.Errorf("%s: no facts decoded", pkg.Path())
	}
	var c constFact
	var n countFact
	if !got.getObj(fn, &c) || c.Value != want {
		return fmt.Errorf("%s: object fact %q, want %q", pkg.Path(), c.Value, want)
	}
	if !got.getPkg(pkg, &n) || n.N != i {
		return fmt.Errorf("%s: package fact %d, want %d", pkg.Path(), n.N, i)
	}
	if m := sets[manyFacts]; m == nil || len(m.pkg) != len(manyFacts.FactTypes) {
		return fmt.Errorf("%s: not all of the %d fact types came back", pkg.Path(), len(manyFacts.FactTypes))
	}
	return nil
}

// numFact is a package fact; each instance is a type of its own, so that
// registering them all takes a while, as the engine's many fact types do.
type numFact[T any] struct{ N int }

func (*numFact[T]) AFact()           {}
func (f *numFact[T]) String() string { return fmt.Sprint(f.N) }

type (
	t0  struct{}
	t1  struct{}
	t2  struct{}
	t3  struct{}
	t4  struct{}
	t5  struct{}
	t6  struct{}
	t7  struct{}
	t8  struct{}
	t9  struct{}
	t10 struct{}
	t11 struct{}
)

// manyFacts is an analyzer that only declares fact types.
var manyFacts = &analysis.Analyzer{
	Name: "manyfacts",
	Doc:  "declare many fact types",
	FactTypes: []analysis.Fact{
		new(numFact[t0]), new(numFact[t1]), new(numFact[t2]), new(numFact[t3]),
		new(numFact[t4]), new(numFact[t5]), new(numFact[t6]), new(numFact[t7]),
		new(numFact[t8]), new(numFact[t9]), new(numFact[t10]), new(numFact[t11]),
	},
	Run: func(*analysis.Pass) (any, error) { return nil, nil },
}
