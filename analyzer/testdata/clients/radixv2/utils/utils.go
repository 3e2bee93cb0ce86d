// Package utils reduces cgrates v0.10.4's utils: a key helper that joins
// its parts with ":".
package utils

import "strings"

const ConcatenatedKeySep = ":"

func ConcatenatedKey(keyVals ...string) string { // want ConcatenatedKey:`keyJoin\(":"\)`
	return strings.Join(keyVals, ConcatenatedKeySep)
}
