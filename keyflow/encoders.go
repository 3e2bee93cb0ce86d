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
	"go/constant"
	"go/types"
	"net/url"
	"strings"
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
var encodings = map[string]any{
	"encoding/base64.StdEncoding":    base64.StdEncoding,
	"encoding/base64.URLEncoding":    base64.URLEncoding,
	"encoding/base64.RawStdEncoding": base64.RawStdEncoding,
	"encoding/base64.RawURLEncoding": base64.RawURLEncoding,
	"encoding/base32.StdEncoding":    base32.StdEncoding,
	"encoding/base32.HexEncoding":    base32.HexEncoding,
}

// encoded evaluates a call of a standard library encoder or hash of one
// value; false for another function.
func (e *evaluator) encoded(call *ast.CallExpr, fn *types.Func) ([]Value, bool) {
	if enc, ok := encoders[fn.FullName()]; ok && len(call.Args) == 1 {
		return namedAfter(e.derived(call, enc.name, func(s string) (string, bool) { return enc.of(s), true }, enc.noBraces), call), true
	}
	// base64.RawURLEncoding.EncodeToString(b), or of the encoding with
	// other padding (base64.URLEncoding.WithPadding(base64.NoPadding)):
	// the encoding is the receiver.
	if fn.Name() != "EncodeToString" || len(call.Args) != 1 {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	enc, ok := e.encoding(sel.X)
	if !ok {
		return nil, false
	}
	of := func(s string) (string, bool) {
		switch enc := enc.(type) {
		case *base64.Encoding:
			return enc.EncodeToString([]byte(s)), true
		case *base32.Encoding:
			return enc.EncodeToString([]byte(s)), true
		}
		return "", false
	}
	// The identity's function is the encoding's expression, its
	// parentheses made brackets: derivedOfParam reads the first '(' as
	// the argument's.
	fname := strings.NewReplacer("(", "[", ")", "]").Replace(types.ExprString(sel.X))
	return namedAfter(e.derived(call, fname, of, true), call), true
}

// encoding returns the encoding of base64 or base32 that x is: a
// variable of its package, or one made of it with WithPadding of
// NoPadding or StdPadding, or Strict.
func (e *evaluator) encoding(x ast.Expr) (any, bool) {
	switch x := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		v, _ := e.g.info.Uses[x.Sel].(*types.Var)
		if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
			return nil, false
		}
		enc, ok := encodings[v.Pkg().Path()+"."+v.Name()]
		return enc, ok
	case *ast.CallExpr:
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		enc, ok := e.encoding(sel.X)
		if !ok {
			return nil, false
		}
		switch {
		case sel.Sel.Name == "Strict" && len(x.Args) == 0:
			if b, ok := enc.(*base64.Encoding); ok {
				return b.Strict(), true
			}
			return enc, true
		case sel.Sel.Name == "WithPadding" && len(x.Args) == 1:
			tv := e.g.info.Types[x.Args[0]]
			if tv.Value == nil {
				return nil, false
			}
			// NoPadding or StdPadding: another rune might be a brace,
			// and WithPadding panics on some.
			r, ok := constant.Int64Val(constant.ToInt(tv.Value))
			if !ok || r != int64(base64.NoPadding) && r != int64(base64.StdPadding) {
				return nil, false
			}
			switch enc := enc.(type) {
			case *base64.Encoding:
				return enc.WithPadding(rune(r)), true
			case *base32.Encoding:
				return enc.WithPadding(rune(r)), true
			}
		}
	}
	return nil, false
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
