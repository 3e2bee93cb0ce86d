package cli

// The least a Redis ACL user needs for each command, as "ACL SETUSER"
// rules: the commands slotcheck (and go-redis under it) sends, and nothing
// else; no key pattern is needed, as no command names a key. docs/runtime.md
// shows them, and the tests run each command as a user with exactly these
// rules (plus "on" and a password).
// aclHelp is the ACL paragraph of a command's help.
func aclHelp(rules string) string {
	return "\nThe least ACL user it needs (the password is read from $" + PasswordEnv + "):\n  ACL SETUSER NAME on >PASSWORD " + rules + "\n"
}

const (
	// ACLSlot is for "slotcheck slot --addr" and "slotcheck verify".
	ACLSlot = "-@all +info +command +cluster|info +cluster|shards +cluster|slots +cluster|keyslot"
	// ACLVerify is the same as ACLSlot.
	ACLVerify = ACLSlot
	// ACLAudit is for "slotcheck audit" on a cluster. CLUSTER NODES tells
	// the masters' views of the slot map apart, and CLUSTER
	// COUNTKEYSINSLOT and GETKEYSINSLOT count again the slots that move
	// during the audit.
	ACLAudit = "-@all +info +command +dbsize +scan +cluster|info +cluster|nodes +cluster|shards +cluster|slots +cluster|countkeysinslot +cluster|getkeysinslot"
)
