package slot

import "sync"

// tagAlphabet is the set of characters TagFor draws from: short, printable,
// and safe in every key grammar.
const tagAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

var (
	tagOnce  sync.Once
	tagTable *[Count]string
)

// TagFor returns a short hashtag whose keys land in slot s: every key that
// contains "{"+TagFor(s)+"}" as its first braces is in slot s. It is the
// shortest such string over [a-zA-Z0-9], the first in that alphabet's order
// among equals. TagFor panics if s is not in [0, Count).
func TagFor(s int) string {
	if s < 0 || s >= Count {
		panic("slot.TagFor: slot out of range")
	}
	tagOnce.Do(buildTags)
	return tagTable[s]
}

// buildTags enumerates strings of length 1, 2, 3, ... over tagAlphabet until
// every slot has one. Three characters already cover all 16384 slots.
func buildTags() {
	t := new([Count]string)
	missing := Count
	buf := make([]byte, 0, 4)
	var walk func(depth int)
	walk = func(depth int) {
		if depth == 0 {
			if s := int(CRC16(buf) & (Count - 1)); t[s] == "" {
				t[s] = string(buf)
				missing--
			}
			return
		}
		for i := 0; i < len(tagAlphabet) && missing > 0; i++ {
			buf = append(buf, tagAlphabet[i])
			walk(depth - 1)
			buf = buf[:len(buf)-1]
		}
	}
	for n := 1; missing > 0; n++ {
		walk(n)
	}
	tagTable = t
}
