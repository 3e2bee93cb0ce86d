// Package keyflow is slotlint's key-flow engine: for one type-checked
// package it resolves every Redis call through the rules and recovers the
// keys that reach it. It never reports; the checks of package analyzer
// read what it gives.
//
// For each function declaration, and for the package-level initializers,
// a Func holds:
//
//   - the keys the function returns (its summary, exported to importing
//     packages as a KeyFunc fact; package-level variables as KeyVar). A
//     value derived from a parameter by a function of it alone (strconv,
//     the standard library's encoders and hashes: encoders.go) is the same
//     function of the argument at a call; a call of a func-typed parameter
//     is the function passed there, given the call's values (applied.go);
//   - every Redis call, a Site, resolved through the rules: the method and
//     the command, the groups of keys with their symbolic values
//     (keyspace.Key) and where each was built, whether a group is open
//     (holds keys it cannot see), the SORT patterns, COPY's database, what
//     the command does with its keys (read, write), and the script,
//     function or library it runs, loads or makes;
//   - one transaction model for Watch, TxPipelined, TxPipeline, Pipelined
//     and Pipeline: the Tx each call opens, the Handle that each variable
//     holding a *redis.Tx or a pipeline stands for, and the Handle each
//     command is sent on; from them, the keys of each transaction (the
//     watched ones, then those of every command queued or run in it);
//   - the colocation verdict over each site's keys (Colocate, the one
//     cartesian expansion of alternatives), and the commands whose keys
//     are in doubt only because a parameter is passed on as it is, or
//     because they are built from different elements of a slice parameter
//     (elems.go): those are carried to the callers (Carried, exported as a
//     KeyWrapper fact). A command sent on a parameter of a pipeline or
//     transaction type, or of a client interface that a pipeline
//     implements (redis.Cmdable), or on a field of the receiver of such a
//     type (a project's wrapper around a pipeline, p.pipe), is carried to
//     the transaction its caller hands it (txhelper.go); a function that
//     returns such a wrapper around a pipeline it makes is that client's
//     TxPipeline to its callers (pipefunc.go); a call of a method of a project's own
//     interface is a call of each implementation in sight that carries
//     commands, and a method of an exported interface carries, as its own
//     KeyWrapper fact, what the implementations of its package carry
//     (ifaceimpl.go).
//
// Scripts whose source is known reach other packages too: an exported
// package-level variable that holds one as a KeyScript fact, an exported
// getter of an embed.FS as KeyScriptFunc, an exported embed.FS of .lua
// files as KeyScriptFS (scriptfacts.go), an exported function that makes
// a redigo script with a key count of its argument as KeyScriptMaker
// (scriptmaker.go), and an exported constructor of a project's own script
// type, whose method runs the script a field holds, as KeyScriptCtor: the
// parameter it sets the field from (scriptfield.go).
//
// Values are flow-insensitive sets, with the order of the function's text
// where the syntax tree alone decides it (reach.go): an assignment in a
// block that returns or panics does not reach the code after it, one on
// every path to a use hides the variable's earlier values, and one after
// a use outside loops and closures does not reach it. A call made only
// where the code has found it is not on a cluster has no colocation
// verdict (guard.go). Where the syntax tree loses a collection of keys (a
// slice filled by index, an []interface{} spread into a raw command, the
// reply of SCAN or KEYS, structs sent on a channel), the package's SSA
// form, built on demand, follows it (ssa.go).
//
// Which types are clients, transactions and pipelines, which methods send
// which commands and which arguments are keys all come from the rules
// (ruleset): the engine knows no client library by name. Raw Do calls map
// their arguments to keys once, through the command table's key specs.
//
// Clients that build a command as a value (rueidis, valkey-go) are rules
// too: a send method's argument is followed back through its builder chain
// to the Builder method that names the command, collecting the keys of
// the chain's key methods (clients.go). MULTI ... EXEC sent one command at
// a time on one connection variable, raw (redigo's Send and Do) or built
// (a rueidis dedicated client, or inside one DoMulti of a literal or of a
// slice grown by append, whose commands a function of the package may
// build), is a TxMulti transaction, taken in the order of the function's
// text.
//
// # One host, checks as readers
//
// The engine runs once per package, in the Analyzer of package flowpass,
// which owns its facts (KeyFunc, KeyVar, KeyWrapper, KeyField, KeyScript,
// KeyScriptFunc, KeyScriptFS, KeyScriptMaker, KeyScriptCtor, PipeFunc,
// KeyJoin, KeyFormat, KeyReply) and gives the model as its result. Two
// Analyzers read that result: slotlint's (package analyzer), whose run
// function runs each family of checks (cross-slot, scripts, atomicity,
// cluster) as functions over the model, and the keyspace map's (package
// keymap). x/tools lets one Analyzer own a
// fact type, so the checks and the map run together in one checker only
// because neither owns the engine's facts.
//
// The checks stay functions of one Analyzer rather than Analyzers of their
// own:
//
//   - go vet -vettool runs one binary, and users already type -disable and
//     -proven-only, and set the same names in gclplugin. multichecker would
//     prefix each Analyzer's flags with its name and split them over
//     several Analyzers.
//   - The ignore-directive check must see every finding of every family to
//     know that a //slotlint:ignore suppresses nothing.
//
// The engine itself is given a Config rather than a Pass and tested on Go
// snippets (keyflow_test.go), and values are computed before any check
// runs, so no finding comes out of evaluating a value.
package keyflow
