// Package gconv converts values, as a framework's conversion package does.
//
// Origin: gogf/gf v2.9.0 (util/gconv: Map).
package gconv

import "fmt"

// Map converts a map of any keys to a map of string keys.
func Map(v any) map[string]any {
	out := map[string]any{}
	if m, ok := v.(map[any]any); ok {
		for k, val := range m {
			out[fmt.Sprint(k)] = val
		}
	}
	return out
}
