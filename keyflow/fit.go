package keyflow

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/slotlint/slotlint/ruleset"
)

// A rule's parameters count from 0 in the Go signature of the method it
// describes: a ctx, when the method takes one, is parameter 0 (go-redis v8
// and v9), and the first argument is when it takes none (go-redis v6 and
// v7, redigo, radix). A rule written for one shape and met on the other
// selects the wrong arguments, so each rule is checked against the
// signature of every function it is met on, and one that does not fit is
// a fault of the rules, reported with the rule's position.

// fit returns why rule m does not fit the signature of fn, or nil. It
// checks the shape only: each parameter a selector names exists; a keys
// selector N... is the variadic parameter, N[] and N[].F a slice that is
// not it; the script, fn and db parameters exist.
func fit(fn *types.Func, m *ruleset.Method) error {
	sig := fn.Signature()
	n := sig.Params().Len()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: the rule of %s does not fit %s: %s (parameters count from 0 in the Go signature: a ctx, when the method takes one, is parameter 0)",
			m.Pos, m.Name, fn.FullName(), fmt.Sprintf(format, args...))
	}
	param := func(what string, i int) error {
		if i >= n {
			return bad("%s names parameter %d, but it has %d", what, i, n)
		}
		return nil
	}
	variadic := func(i int) bool { return sig.Variadic() && i == n-1 }
	for _, group := range [][]ruleset.Selector{m.Keys, m.Patterns} {
		for _, s := range group {
			if err := param(fmt.Sprintf("selector %q", s.Text), s.Param); err != nil {
				return err
			}
			// N.F[] and N.F[:half] take a slice field of parameter N,
			// N[], N[].F and N[][K] the parameter itself.
			paramSlice := s.Slice && s.Field == ""
			switch {
			case s.Variadic && !variadic(s.Param):
				return bad("selector %q takes the elements of a variadic parameter, but parameter %d is not one", s.Text, s.Param)
			case paramSlice && variadic(s.Param):
				return bad("selector %q takes a slice, but parameter %d is variadic; its selector is %d...", s.Text, s.Param, s.Param)
			case paramSlice:
				if _, ok := sig.Params().At(s.Param).Type().Underlying().(*types.Slice); !ok {
					return bad("selector %q takes a slice, but parameter %d is %s", s.Text, s.Param, sig.Params().At(s.Param).Type())
				}
			}
		}
	}
	if m.Args != nil {
		if err := param(fmt.Sprintf("args %q", m.Args.Text), m.Args.Param); err != nil {
			return err
		}
	}
	for _, p := range []struct {
		what string
		i    int
	}{{"script", m.Script}, {"fn", m.Fn}, {"db", m.DB}, {"reply", m.Reply}} {
		if p.i >= 0 {
			if err := param(p.what, p.i); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFit checks rule m against fn once, and records a rule that does not
// fit, met in a package of the program, as a fault of the rules; it
// reports whether the rule fits.
func (g *Engine) checkFit(fn *types.Func, m *ruleset.Method) bool {
	key := fitKey{fn, m}
	err, done := g.fits[key]
	if !done {
		err = fit(fn, m)
		if g.fits == nil {
			g.fits = map[fitKey]error{}
		}
		g.fits[key] = err
		// A client's own calls inside its package may meet a rule by a
		// bare method name on a type it was not written for; the rule is
		// not used there, but that is no fault of the rules. Nor is a bare
		// name met on a method of another exported type of the client
		// (go-redis's Script.Exists, or the search builders' Del and Dump,
		// beside Cmdable's Exists, Del and Dump): the rule describes the
		// methods of the client's own types (types:) and of the unexported
		// types that hold their commands (go-redis's cmdable), not those.
		if err != nil && !g.IsClientPackage(g.pkg) && !g.otherMethod(fn, m) {
			g.faults = append(g.faults, err)
		}
	}
	return err == nil
}

// otherMethod reports whether a rule named by a bare method name, met on
// fn, is met on a method of an exported type that the rules give no role:
// another method of the same name, which the rule was not written for.
func (g *Engine) otherMethod(fn *types.Func, m *ruleset.Method) bool {
	recv := fn.Signature().Recv()
	if recv == nil || strings.Contains(m.Name, ".") {
		return false
	}
	n := namedOf(recv.Type())
	return n != nil && n.Obj().Exported() && g.TypeRole(n) == ""
}

type fitKey struct {
	fn *types.Func
	m  *ruleset.Method
}

// RuleFaults returns the rules that did not fit the functions they were
// met on, each with the rule's position in its file.
func (g *Engine) RuleFaults() []error { return g.faults }
