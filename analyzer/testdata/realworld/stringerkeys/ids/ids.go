// Package ids stands for github.com/google/uuid: an id type of another
// package, an array printed by its String method.
package ids

import "encoding/hex"

type UUID [16]byte

func (u UUID) String() string { return hex.EncodeToString(u[:]) }
