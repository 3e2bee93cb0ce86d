package analyzer

import (
	"slices"
	"strings"

	"github.com/slotlint/slotlint/ruleset"
)

// replaces reports whether a write command may replace data, by what the
// command table's key specs say of each key: it updates what is there
// (UPDATE), or overwrites it without being an insertion (OW without
// INSERT). Only such a write can lose an update: a command that only
// removes what it is given (SREM, HDEL, ZREM, LREM, DEL: DELETE) or only
// adds (SETNX, SADD, RPUSH: INSERT) leaves every other client's change in
// place, and doing it twice is doing it once. A command the table does
// not describe is taken to replace data.
func replaces(rules *ruleset.Rules, command string) bool {
	cmd := rules.Commands[strings.ToLower(command)]
	if cmd == nil || len(cmd.Keys) == 0 {
		return true
	}
	for _, ks := range cmd.Keys {
		update := slices.Contains(ks.Flags, "UPDATE")
		overwrite := slices.Contains(ks.Flags, "OW") && !slices.Contains(ks.Flags, "INSERT")
		if update || overwrite {
			return true
		}
	}
	return false
}
