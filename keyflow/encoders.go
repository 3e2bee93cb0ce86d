package keyflow

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"go/ast"
	"go/types"
	"net/url"
	"strings"

	"github.com/slotlint/slotlint/keyspace"
)

// Keys whose text is an encoding of a value:
//
//	service := base64.RawURLEncoding.EncodeToString([]byte(serviceName))
//	return prefix + "{" + service + "}:" + id
//
// The standard library's encoders and hashes are functions of their
// argument alone: two keys that encode the same value hold the same text
// there, as strconv.Itoa of one value does (evaluator.derived). Encoders
// whose alphabet has no brace make a hashtag that nothing cuts short.

// An encoder is a standard library function of one value.
type encoder struct {
	name     string // the identity's function name
	of       func(string) string
	noBraces bool // the encoding never holds a brace
}

// encoders are the package functions, by their full name.
var encoders = map[string]encoder{
	"encoding/hex.EncodeToString": {"hex", func(s string) string { return hex.EncodeToString([]byte(s)) }, true},
	"net/url.QueryEscape":         {"url.QueryEscape", url.QueryEscape, true},
	"net/url.PathEscape":          {"url.PathEscape", url.PathEscape, true},
	"crypto/md5.Sum":              {"md5", func(s string) string { h := md5.Sum([]byte(s)); return string(h[:]) }, false},
	"crypto/sha1.Sum":             {"sha1", func(s string) string { h := sha1.Sum([]byte(s)); return string(h[:]) }, false},
	"crypto/sha256.Sum256":        {"sha256", func(s string) string { h := sha256.Sum256([]byte(s)); return string(h[:]) }, false},
	"crypto/sha512.Sum512":        {"sha512", func(s string) string { h := sha512.Sum512([]byte(s)); return string(h[:]) }, false},
}

// encodings are the encodings of encoding/base64 and encoding/base32
// that package variables hold, by the variable's package and name.
var encodings = map[string]func([]byte) string{
	"encoding/base64.StdEncoding":    base64.StdEncoding.EncodeToString,
	"encoding/base64.URLEncoding":    base64.URLEncoding.EncodeToString,
	"encoding/base64.RawStdEncoding": base64.RawStdEncoding.EncodeToString,
	"encoding/base64.RawURLEncoding": base64.RawURLEncoding.EncodeToString,
	"encoding/base32.StdEncoding":    base32.StdEncoding.EncodeToString,
	"encoding/base32.HexEncoding":    base32.HexEncoding.EncodeToString,
}

// encoded evaluates a call of a standard library encoder or hash of one
// value; false for another function.
func (e *evaluator) encoded(call *ast.CallExpr, fn *types.Func) ([]Value, bool) {
	if enc, ok := encoders[fn.FullName()]; ok && len(call.Args) == 1 {
		return namedAfter(e.derived(call, enc.name, func(s string) (string, bool) { return enc.of(s), true }, enc.noBraces), call), true
	}
	// base64.RawURLEncoding.EncodeToString(b): the encoding is the
	// receiver, a variable of its package.
	if fn.Name() != "EncodeToString" || len(call.Args) != 1 {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	v, _ := e.g.info.Uses[IdentOf(sel.X)].(*types.Var)
	if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil, false
	}
	of, ok := encodings[v.Pkg().Path()+"."+v.Name()]
	if !ok {
		return nil, false
	}
	return namedAfter(e.derived(call, v.Pkg().Name()+"."+v.Name(), func(s string) (string, bool) { return of([]byte(s)), true }, true), call), true
}

// namedAfter names an unknown encoding after its call: the key's text there is
// not the value's.
func namedAfter(vs []Value, call *ast.CallExpr) []Value {
	for _, v := range vs {
		if p := v.Key.Parts; len(p) == 1 && p[0].Unknown {
			p[0].Name = exprName(call)
		}
	}
	return vs
}

// derivedValue reports whether k is one value of a function of another
// (evaluator.derived): "sha256($1)".
func derivedValue(k keyspace.Key) bool {
	p := k.Parts
	return len(p) == 1 && p[0].Unknown && strings.HasSuffix(p[0].ID, ")") && strings.IndexByte(p[0].ID, '(') > 0
}
