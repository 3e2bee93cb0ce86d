package driver

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/types"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

type objKey struct {
	obj types.Object
	t   reflect.Type
}

type pkgKey struct {
	pkg *types.Package
	t   reflect.Type
}

// A factSet holds one analyzer's facts about one package.
type factSet struct {
	obj map[objKey]analysis.Fact
	pkg map[pkgKey]analysis.Fact
}

func newFactSet() *factSet {
	return &factSet{obj: map[objKey]analysis.Fact{}, pkg: map[pkgKey]analysis.Fact{}}
}

// getObj copies the fact of fact's type about obj into fact.
func (s *factSet) getObj(obj types.Object, fact analysis.Fact) bool {
	if f, ok := s.obj[objKey{obj, reflect.TypeOf(fact)}]; ok {
		reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(f).Elem())
		return true
	}
	return false
}

func (s *factSet) getPkg(pkg *types.Package, fact analysis.Fact) bool {
	if f, ok := s.pkg[pkgKey{pkg, reflect.TypeOf(fact)}]; ok {
		reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(f).Elem())
		return true
	}
	return false
}

// decodedFacts are a dependency's facts, decoded once.
type decodedFacts struct {
	sets map[*analysis.Analyzer]*factSet
}

// A gobFact is a fact as the cache holds it: the object it is about is
// named by its path from the package scope (objectpath), as the go vet
// driver (unitchecker) does; an empty Object is a package fact.
type gobFact struct {
	Analyzer string
	Object   objectpath.Path
	Fact     analysis.Fact
}

var (
	registerMu sync.Mutex
	registered = map[reflect.Type]bool{}
)

// register tells gob the analyzers' fact types. It returns only once every
// type is registered: packages encode their facts concurrently, and one
// that went on while another was still registering a type would fail with
// "gob: type not registered for interface" (seen on libi/dcron's
// dependencies).
func register(analyzers []*analysis.Analyzer) {
	registerMu.Lock()
	defer registerMu.Unlock()
	for _, a := range analyzers {
		for _, f := range a.FactTypes {
			if t := reflect.TypeOf(f); !registered[t] {
				gob.Register(f)
				registered[t] = true
			}
		}
	}
}

// encodeFacts encodes a package's facts. Facts about objects that no path
// reaches from the package scope (local ones) are of no use to importers,
// which cannot name those objects, and are dropped.
func encodeFacts(analyzers []*analysis.Analyzer, tpkg *types.Package, own map[*analysis.Analyzer]*factSet) ([]byte, error) {
	register(analyzers)
	var list []gobFact
	var enc objectpath.Encoder
	for _, a := range analyzers {
		set := own[a]
		if set == nil {
			continue
		}
		for k, f := range set.obj {
			path, err := enc.For(k.obj)
			if err != nil {
				continue
			}
			list = append(list, gobFact{a.Name, path, f})
		}
		for _, f := range set.pkg {
			list = append(list, gobFact{a.Name, "", f})
		}
	}
	if len(list) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(list); err != nil {
		return nil, fmt.Errorf("encoding the facts of %s: %v", tpkg.Path(), err)
	}
	return buf.Bytes(), nil
}

// decodeFacts decodes a package's facts against its types from export
// data. A fact about an object that the export data lacks is dropped: no
// importer can reach that object.
func decodeFacts(analyzers []*analysis.Analyzer, tpkg *types.Package, data []byte) map[*analysis.Analyzer]*factSet {
	register(analyzers)
	var list []gobFact
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&list); err != nil {
		return nil
	}
	byName := map[string]*analysis.Analyzer{}
	for _, a := range analyzers {
		byName[a.Name] = a
	}
	sets := map[*analysis.Analyzer]*factSet{}
	for _, gf := range list {
		a := byName[gf.Analyzer]
		if a == nil || gf.Fact == nil {
			continue
		}
		addFact(sets, a, tpkg, gf.Object, gf.Fact)
	}
	return sets
}

// addFact puts a fact read from a file into analyzer a's set: a fact about
// package p when path is empty, else about the object at path in p. A fact
// about an object that p's types lack is dropped: no importer can reach
// that object.
func addFact(sets map[*analysis.Analyzer]*factSet, a *analysis.Analyzer, p *types.Package, path objectpath.Path, fact analysis.Fact) {
	set := sets[a]
	if set == nil {
		set = newFactSet()
		sets[a] = set
	}
	if path == "" {
		set.pkg[pkgKey{p, reflect.TypeOf(fact)}] = fact
		return
	}
	if obj, err := objectpath.Object(p, path); err == nil {
		set.obj[objKey{obj, reflect.TypeOf(fact)}] = fact
	}
}
