package keyflow

import (
	"go/constant"
	"go/types"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// A package that builds its key prefixes with a hashtag:
//
//	// DeriveKeyPrefix: "thv:auth:{ns:name}:", {ns:name} a Redis hash tag.
//	func DeriveKeyPrefix(namespace, name string) string {
//		return fmt.Sprintf("thv:auth:{%s:%s}:", namespace, name)
//	}
//
//	func (s *RedisStorage) invalidate(ctx context.Context, code string) error {
//		pipe := s.client.TxPipeline()
//		pipe.Set(ctx, s.keyPrefix+"invalidated:"+code, "1", ttl)
//		pipe.Expire(ctx, s.keyPrefix+"auth_code:"+code, ttl)
//		...
//	}
//
// The store's prefix is configured (a field set from its caller's
// settings): slotlint sees neither its value nor whether it has a
// hashtag. Keys under one such prefix with different text after it are
// in doubt (maybe-cross-slot) unless the prefix holds a hashtag, and a
// package whose own code derives its prefixes with one shows that its
// configured prefix is one of those.

// TaggedPrefix reports whether a function of the package returns a key
// prefix with a hashtag: literal text and values whose braces close, with
// nothing after the closing '}' but separators; or whether a constant of
// the package is one, the default that a store puts in place of an empty
// configured prefix:
//
//	const DefaultKeyPrefix = "kthena:batch:{b}:"
func (g *Engine) TaggedPrefix() bool {
	if g.tagged != nil {
		return *g.tagged
	}
	tagged := g.taggedConst() || g.taggedFunc()
	g.tagged = &tagged
	return tagged
}

// taggedFunc reports whether a function of the package returns only key
// prefixes with a hashtag.
func (g *Engine) taggedFunc() bool {
	for fn, decl := range g.decls {
		sig := fn.Signature()
		if decl.Body == nil || sig.Results().Len() != 1 || !isStringType(sig.Results().At(0).Type()) {
			continue
		}
		results := g.summarize(decl).Results
		if len(results) == 0 {
			continue
		}
		all := true
		for _, r := range results {
			all = all && taggedPrefix(r.Key)
		}
		if all {
			return true
		}
	}
	return false
}

// taggedConst reports whether a string constant of the package is a key
// prefix with a hashtag.
func (g *Engine) taggedConst() bool {
	scope := g.pkg.Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || c.Val().Kind() != constant.String {
			continue
		}
		if taggedPrefix(keyspace.Lit(constant.StringVal(c.Val()))) {
			return true
		}
	}
	return false
}

// taggedPrefix reports whether k is a prefix with a hashtag:
// "thv:auth:{<ns>:<name>}:".
func taggedPrefix(k keyspace.Key) bool {
	if len(k.Parts) == 0 || k.Parts[0].Unknown || k.Subject().Kind != keyspace.SubjectTag {
		return false
	}
	last := k.Parts[len(k.Parts)-1]
	if last.Unknown {
		return false
	}
	i := strings.LastIndexByte(last.Lit, '}')
	return i >= 0 && strings.Trim(last.Lit[i+1:], ":/_-.|#") == "" && last.Lit[i+1:] != ""
}

// UnderOnePrefix reports whether every key of the groups begins with one
// unknown value that the code names (Prefixed: a field or a setting, not
// a parameter the callers give nor a piece of a value the function
// computes), followed by literal text.
func UnderOnePrefix(groups []Group) bool {
	id := ""
	for _, grp := range groups {
		for _, v := range grp {
			if !Prefixed(v.Key) || v.Key.Parts[1].Unknown {
				return false
			}
			if id == "" {
				id = v.Key.Parts[0].ID
			} else if v.Key.Parts[0].ID != id {
				return false
			}
		}
	}
	return id != ""
}
