// Package flowtest runs an Analyzer that reads the key-flow model in one
// pass with the Analyzer that makes it, for analysistest.
//
// analysistest checks the facts of the Analyzer under test alone, and the
// key-flow facts (KeyFunc, KeyVar, KeyWrapper, KeyField) belong to the
// Analyzer of package flowpass, which slotlint's checks and the keyspace
// map require. The test data of both say which facts each package
// exports, beside the findings; Hosted gives analysistest one Analyzer
// that owns both.
package flowtest

import (
	"github.com/slotlint/slotlint/keyflow/flowpass"
	"golang.org/x/tools/go/analysis"
)

// Hosted returns an Analyzer that runs flowpass.Analyzer and then a on each
// package, in one pass that owns the facts of both: a's Run gets the model
// in its ResultOf, as when a requires flowpass.Analyzer. Its name, flags
// and result are a's.
func Hosted(a *analysis.Analyzer) *analysis.Analyzer {
	h := *a
	h.Requires = nil
	h.FactTypes = append(flowpass.Analyzer.FactTypes[:len(flowpass.Analyzer.FactTypes):len(flowpass.Analyzer.FactTypes)], a.FactTypes...)
	h.Run = func(pass *analysis.Pass) (any, error) {
		model, err := flowpass.Analyzer.Run(pass)
		if err != nil {
			return nil, err
		}
		p := *pass
		p.Analyzer = a
		p.ResultOf = map[*analysis.Analyzer]any{flowpass.Analyzer: model}
		return a.Run(&p)
	}
	return &h
}
