// Package clustercheck is slotlint's runtime checker: it checks keys against
// a live Redis Cluster, and watches the commands a program sends so that a
// test suite run on a single Redis server catches what would fail only on a
// cluster.
//
//   - Verify compares slotlint's slot calculation (package slot) with the
//     server's CLUSTER KEYSLOT for each key, and says which master serves
//     each slot (FetchTopology).
//   - AssertSameSlot and AssertSameSlotLive are test assertions that keys
//     share a slot, with a message that names each key's slot and the fix.
//   - Hook is a go-redis hook for test suites. It finds the keys of every
//     command from the server's key specs and reports commands,
//     transactions, WATCHes and scripts whose keys span slots, and the
//     transactions that protect nothing or that Redis refuses (WATCH or
//     MULTI inside MULTI, raw WATCH or MULTI on a pooled client), and
//     scripts by their Lua (undeclared keys, flags, a write run with
//     EVAL_RO), either by failing the command with a
//     *CrossSlotError, as a cluster would, or by failing the test at its
//     end.
//   - Audit scans every master of a cluster, read-only, and tallies how keys
//     spread over slots and nodes and which keys fit no key family of the
//     rules.
//
// The package's domain logic comes from packages slot, keyspace and
// luacheck; this package talks to Redis through go-redis v9. The runtime
// hooks for rueidis and valkey-go (clustercheck/rueidishook,
// clustercheck/valkeyhook) are modules of their own, over the
// client-independent clustercheck/rawcheck.
package clustercheck
