package analyzer

import "go/types"

// builtinClients are the import paths of the client libraries that the
// built-in rules (rules.yaml) describe. Parsing the rules takes tens of
// milliseconds, and under go vet every package is checked by a process of
// its own, most of them (the standard library's, plain helpers') unable to
// reach a client library. With the built-in rules alone, this list tells
// those packages apart without loading the rules; TestBuiltinClients keeps
// it equal to the rules' clients, and checks that the built-in rules
// declare no wrappers.
var builtinClients = map[string]bool{
	"github.com/redis/go-redis/v9": true,
	"github.com/go-redis/redis/v8": true,
}

// needsRules reports whether checking pkg needs the rules: the user gave
// rules of their own, which may name other clients or wrappers, or pkg can
// reach one of the built-in client libraries.
func needsRules(pkg *types.Package) bool {
	if rulesFile != "" || rulesInline != "" {
		return true
	}
	return reaches(pkg, func(path string) bool { return builtinClients[path] })
}

// reaches reports whether pkg or one of its dependencies has a path that
// match accepts.
func reaches(pkg *types.Package, match func(path string) bool) bool {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package) bool
	walk = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		if match(p.Path()) {
			return true
		}
		for _, imp := range p.Imports() {
			if walk(imp) {
				return true
			}
		}
		return false
	}
	return walk(pkg)
}
