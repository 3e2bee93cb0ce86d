package keyflow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// TestReceiverFieldOfNamedResult: a named result whose address is taken
// lives in a cell, and "return device, err" stores into the cell what it
// loads from it (edgex-go's deviceById). Following the cell to the value
// stored there comes back to the cell: no receiver's field, and an end.
func TestReceiverFieldOfNamedResult(t *testing.T) {
	const src = `package p

type Device struct{ Name string }

func load(out *Device) error { return nil }

func deviceById(id string) (device Device, err error) {
	err = load(&device)
	if err != nil {
		return device, err
	}
	return
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	fn := pkg.Func("deviceById")
	checked := 0
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			load, ok := ins.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				continue
			}
			if _, ok := load.X.(*ssa.Alloc); !ok {
				continue
			}
			checked++
			if f, m := receiverField(load); f != nil || m != nil {
				t.Errorf("receiverField(%s) = %v, %v; want none", load, f, m)
			}
		}
	}
	if checked == 0 {
		t.Fatalf("no load of the result's cell in:\n%s", fn)
	}
}
