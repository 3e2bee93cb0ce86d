// Package checks is the one list of slotlint's checks: for each, its name,
// its family, its default severity, a one-line doc, a longer description
// and the section of the README that shows it.
//
// Everything else that names the checks follows this list:
//   - a finding's category is its check's name: report under the name
//     constants below (cmd/slotlint's TestCategoriesAreRegistered runs
//     slotlint over the analyzer's test modules and fails on a category
//     that is not here, or a check that is never reported there);
//   - the analyzer's doc, which slotlint -help prints, lists the checks
//     with Text, and the SARIF log describes them from Lookup;
//   - -disable takes a List, and a rules file that names another check
//     does not load: both refuse unknown names with UnknownError;
//   - the rules file's checks: section and the README's table (Markdown)
//     are held equal to the list by this package's tests.
//
// The package uses the standard library only (and internal/editdist, which
// does too), so that the domain packages (ruleset, luacheck) may import it.
package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/internal/editdist"
)

// The names of the checks, which are also the categories of their findings.
const (
	// CrossSlot: keys of one command, transaction or script provably hash
	// to different slots.
	CrossSlot = "cross-slot"
	// MaybeCrossSlot: nothing proves that the keys share a slot.
	MaybeCrossSlot = "maybe-cross-slot"
	// CallerKeys: a function that other modules call sends its callers'
	// keys in one command, and nothing keeps them in one slot.
	CallerKeys = "caller-keys"

	// KeyspaceWide: a command that reads or changes every key (KEYS, SCAN)
	// sent on a client that may be a cluster, where it reaches one node.
	KeyspaceWide = "keyspace-wide"
	// ClusterDB: a database other than 0 where the client may be a
	// cluster (SELECT, MOVE, COPY ... DB, a client's DB option).
	ClusterDB = "cluster-db"
	// WatchWithoutKeys: a Watch given no keys on a client that may be a
	// cluster, whose cluster client refuses it.
	WatchWithoutKeys = "watch-without-keys"

	// LuaSyntax: a script that does not parse.
	LuaSyntax = "lua-syntax"
	// UndeclaredKey: a script touches a key it was not given in KEYS.
	UndeclaredKey = "undeclared-key"
	// UndeclaredKeySameSlot: a script touches a key it was not given in
	// KEYS, but the key keeps the slot of a key in KEYS.
	UndeclaredKeySameSlot = "undeclared-key-same-slot"
	// ScriptArity: KEYS and ARGV do not match what the script reads.
	ScriptArity = "script-arity"
	// ScriptFlags: a shebang that Redis 7 rejects or that does not fit.
	ScriptFlags = "script-flags"

	// ReadOutsideWatch: a value read outside a Watch function decides what
	// it writes.
	ReadOutsideWatch = "read-outside-watch"
	// TxWriteOutsideMulti: a write inside a Watch function that is not
	// queued in its MULTI/EXEC.
	TxWriteOutsideMulti = "tx-write-outside-multi"
	// UnboundedWatchRetry: a Watch retry loop without a bound.
	UnboundedWatchRetry = "unbounded-watch-retry"
	// RetryOnAnyError: a Watch retry loop that retries after any error.
	RetryOnAnyError = "retry-on-any-error"
	// UnwatchedDecisionKey: a Watch function decides what to write from a
	// key it does not watch.
	UnwatchedDecisionKey = "unwatched-decision-key"
	// LostUpdate: a read, then a write of the same key computed from it,
	// without WATCH.
	LostUpdate = "lost-update"
	// WatchInMulti: a WATCH queued inside MULTI/EXEC, which Redis refuses.
	WatchInMulti = "watch-in-multi"
	// PooledTransaction: a raw WATCH, MULTI or EXEC sent with Do on a
	// pooled client.
	PooledTransaction = "pooled-transaction"

	// IgnoreDirective: a //slotlint:ignore without a reason, or that
	// suppresses nothing.
	IgnoreDirective = "ignore-directive"
)

// A Family groups the checks that read the same part of the program.
type Family string

const (
	// FamilyCrossSlot: the keys of each command and transaction.
	FamilyCrossSlot Family = "cross-slot"
	// FamilyCluster: what a cluster does unlike one server, besides slots:
	// one node's keyspace, database 0 only.
	FamilyCluster Family = "cluster"
	// FamilyScripts: Lua scripts and Redis 7 functions, with luacheck.
	FamilyScripts Family = "scripts"
	// FamilyAtomicity: the WATCH/MULTI/EXEC mistakes that lose updates.
	FamilyAtomicity Family = "atomicity"
	// FamilyDirectives: the //slotlint:ignore directives themselves.
	FamilyDirectives Family = "directives"
)

// A Severity says how a check's findings are reported by default; the
// rules file may change it, or turn the check off. The values are those of
// the rules file's checks: section.
type Severity string

const (
	// SeverityError: the finding fails the run.
	SeverityError Severity = "error"
	// SeverityWarning: the finding is reported but does not fail the run.
	SeverityWarning Severity = "warning"
)

// A Check describes one of slotlint's checks.
type Check struct {
	// Name is the check's name and the category of its findings, one of
	// the constants above.
	Name   string
	Family Family
	// Severity is the check's severity in the built-in rules.
	Severity Severity
	// Doc is one line, in lower case and without a trailing period, that
	// says what a finding means.
	Doc string
	// Description says more: what is wrong, and what to do about it. It is
	// plain text, in sentences.
	Description string
	// Anchor is the anchor of the section of docs/checking.md (or, for
	// ignore-directive, of the README) that says more of the check, without
	// the "#": its page links there.
	Anchor string
}

// URL returns the address of the check's page, docs/checks/NAME.md: what
// a finding means, bad and good code, and how to turn the check off.
func (c Check) URL() string {
	return "https://github.com/slotlint/slotlint/blob/main/docs/checks/" + c.Name + ".md"
}

// registry lists the checks, family by family, in the order in which the
// README, the rules file and the analyzer's doc show them.
var registry = []Check{
	{
		Name: CrossSlot, Family: FamilyCrossSlot, Severity: SeverityError,
		Doc:         "the keys of one command, transaction or script provably hash to different slots",
		Description: "The keys of one command, transaction or script provably hash to different slots: Redis Cluster rejects the command with CROSSSLOT. Give the keys a common hashtag, the same {...} section in each key, so that they hash to one slot.",
		Anchor:      "cross-slot",
	},
	{
		Name: MaybeCrossSlot, Family: FamilyCrossSlot, Severity: SeverityWarning,
		Doc:         "no common hashtag proves that the keys of one command share a slot",
		Description: "The keys of one command, transaction or script may hash to different slots: no common hashtag proves that they share one, as with two keys built from unknown values and without a hashtag. Give them a common hashtag.",
		Anchor:      "maybe-cross-slot",
	},
	{
		Name: CallerKeys, Family: FamilyCrossSlot, Severity: SeverityWarning,
		Doc:         "an exported function sends its callers' keys in one command, and nothing keeps them in one slot",
		Description: "A function that other modules call (exported, of an exported type, outside main and internal packages) sends the keys its callers give, a keys ...string or a []string, each as given or joined to a prefix, pairs ...any, the streams of an XReadArgs it is given, or a field that only its callers' arguments fill, in one multi-key command, transaction or script. slotlint checks each call of the function that it sees with the keys passed there, but the callers in other modules are not seen, and nothing in the function keeps the keys in one slot: on a Redis Cluster the command fails with CROSSSLOT whenever two of them hash to different slots. Require keys that share a hashtag and say so in the function's doc, group the keys by slot and send one command per slot; where every caller is in the module, and so checked, mark the line with //slotlint:ignore and the reason, or turn the check off (-disable caller-keys).",
		Anchor:      CallerKeys,
	},
	{
		Name: KeyspaceWide, Family: FamilyCluster, Severity: SeverityError,
		Doc:         "a keyspace-wide command (KEYS, SCAN, RANDOMKEY) on a client that may be a cluster, where it reaches one node",
		Description: "A command that reads or changes the whole keyspace (KEYS, SCAN and its iterators, RANDOMKEY, DBSIZE, FLUSHDB, FLUSHALL: keyspace-wide: true in rules.yaml's commands, from Redis's command tips) is sent on a client that may talk to a Redis Cluster, or called with redis.call inside a Lua script that such a client runs. The client sends it to one node, so it sees or changes that node's keys only, with no error. Walk every master (go-redis ForEachMaster, the per-node clients of rueidis' Nodes(), or with redigo and radix a connection to each master), or keep the keys you need to list in a set under one hashtag.",
		Anchor:      KeyspaceWide,
	},
	{
		Name: ClusterDB, Family: FamilyCluster, Severity: SeverityError,
		Doc:         "a database other than 0 where the client may be a cluster, which has database 0 only",
		Description: "COPY ... DB or MOVE to a database other than 0 on a client that may talk to a Redis Cluster, or a client's DB option that a cluster client drops (go-redis UniversalOptions with several addresses or IsClusterMode, the database of a URL given to ParseClusterURL). A Redis Cluster has database 0 only: it refuses SELECT, MOVE, SWAPDB and COPY to another database, and a cluster client writes to database 0 without an error. Keep the data in database 0 and separate it with a key prefix. The check stays silent under target: valkey-9, whose cluster mode has other databases. It was named copy-db before, and that name still selects it.",
		Anchor:      ClusterDB,
	},
	{
		Name: WatchWithoutKeys, Family: FamilyCluster, Severity: SeverityError,
		Doc:         "a Watch given no keys on a client that may be a cluster, whose cluster client refuses it",
		Description: "A Watch (go-redis's Watch(ctx, fn, keys...)) is given no keys on a client that may talk to a Redis Cluster. A one-server client runs the function with nothing watched; the cluster client refuses the call with \"redis: Watch requires at least one key\" and never runs the function, so nothing it would write is written. Pass the keys the function reads and writes, all under one hashtag. Which methods refuse no keys is rules.yaml's needs-keys.",
		Anchor:      WatchWithoutKeys,
	},
	{
		Name: LuaSyntax, Family: FamilyScripts, Severity: SeverityError,
		Doc:         "a script that does not parse as Lua",
		Description: "A script sent with EVAL, EVALSHA or a Script, or a function library loaded with FUNCTION LOAD, does not parse as Lua; Redis rejects it when it is loaded. The finding gives the Lua line and column.",
		Anchor:      luaAnchor,
	},
	{
		Name: UndeclaredKey, Family: FamilyScripts, Severity: SeverityError,
		Doc:         "a script touches a key it was not given in KEYS, which may be in another slot",
		Description: "A Lua script or function reads or writes a key that it was not given in KEYS, and nothing proves the key is in the slot of a key in KEYS. Redis Cluster routes a script by the keys in KEYS, so a key built inside the script or taken from ARGV may live on another node. Pass the key in KEYS.",
		Anchor:      luaAnchor,
	},
	{
		Name: UndeclaredKeySameSlot, Family: FamilyScripts, Severity: SeverityWarning,
		Doc:         "a script touches a key it was not given in KEYS, in the slot of a key in KEYS",
		Description: "A Lua script or function reads or writes a key that it was not given in KEYS, but the key keeps the hashtag (or the slot) of a key in KEYS, such as ARGV[1] .. id where ARGV[1] is a prefix with the hashtag of KEYS[1]. Redis Cluster runs it, but cluster proxies and Dragonfly route and lock by KEYS alone, and Redis documents that every key a script touches is declared. Pass the key in KEYS when its name is known before the call.",
		Anchor:      UndeclaredKeySameSlot,
	},
	{
		Name: ScriptArity, Family: FamilyScripts, Severity: SeverityError,
		Doc:         "the keys and arguments passed to a script do not match what it reads",
		Description: "The keys and arguments passed to a script do not match what it reads: a KEYS[n] past the keys passed, keys passed and never read, a key passed in ARGV, or a value passed in KEYS (a time or a count that no command takes as a key, which on Redis Cluster must still hash to the slot of the other keys; the keys' slots are judged without it, so this is its one finding).",
		Anchor:      luaAnchor,
	},
	{
		Name: ScriptFlags, Family: FamilyScripts, Severity: SeverityError,
		Doc:         "a script's flags that Redis 7 rejects, or that do not fit the script or the client",
		Description: "The script's #!lua shebang line, or a function's flags, has what Redis 7 rejects, or flags that do not fit the script or how it is called: no-writes on a script that writes, no-writes missing under a read-only call, no-cluster on a cluster client.",
		Anchor:      luaAnchor,
	},
	{
		Name: ReadOutsideWatch, Family: FamilyAtomicity, Severity: SeverityWarning,
		Doc:         "a value read before Watch, or outside its function, decides what the function writes",
		Description: "A value read before Watch(ctx, fn, keys...), or anywhere outside fn, decides what fn writes: WATCH sees only changes made after it, so the value is stale, each retry reuses it, and the update can be lost. Read it inside fn.",
		Anchor:      ReadOutsideWatch,
	},
	{
		Name: TxWriteOutsideMulti, Family: FamilyAtomicity, Severity: SeverityError,
		Doc:         "a write inside a Watch function that runs at once, not in its MULTI/EXEC",
		Description: "A write inside a Watch function runs at once, on the *redis.Tx (or in a plain pipeline, or on another client, to a key of the transaction), instead of being queued in its MULTI/EXEC with TxPipelined or TxPipeline: EXEC failing does not undo it, and each retry writes again.",
		Anchor:      TxWriteOutsideMulti,
	},
	{
		Name: UnboundedWatchRetry, Family: FamilyAtomicity, Severity: SeverityWarning,
		Doc:         "a loop that retries Watch on redis.TxFailedErr with no bound on its attempts",
		Description: "A loop retries Watch on redis.TxFailedErr with no bound on its attempts: no counter, no ctx.Err() or ctx.Done() check, no deadline. Under a hot key it can spin for ever.",
		Anchor:      UnboundedWatchRetry,
	},
	{
		Name: RetryOnAnyError, Family: FamilyAtomicity, Severity: SeverityWarning,
		Doc:         "a loop that retries Watch after any error, not only redis.TxFailedErr",
		Description: "A loop retries Watch after any error, not only redis.TxFailedErr: after a network error EXEC may have run, and a retry applies the writes twice.",
		Anchor:      RetryOnAnyError,
	},
	{
		Name: UnwatchedDecisionKey, Family: FamilyAtomicity, Severity: SeverityWarning,
		Doc:         "a Watch function decides what to write from a key it does not watch",
		Description: "A Watch function reads a key that it does not watch and uses what it read to decide what to write, in a condition or a written value: a change to that key before EXEC goes unnoticed. Watch the key.",
		Anchor:      UnwatchedDecisionKey,
	},
	{
		Name: LostUpdate, Family: FamilyAtomicity, Severity: SeverityWarning,
		Doc:         "a read of a key, then a write of the same key computed from it, with no WATCH",
		Description: "A key is read and then written with a value computed from what was read, with no WATCH around them (MULTI/EXEC alone does not help): two clients that both read before either writes lose an update. Use an atomic command, Watch with a bounded retry, or a Lua script.",
		Anchor:      LostUpdate,
	},
	{
		Name: WatchInMulti, Family: FamilyAtomicity, Severity: SeverityError,
		Doc:         "a WATCH queued inside MULTI/EXEC, which Redis refuses",
		Description: "WATCH is sent on the pipeliner of TxPipelined or on a TxPipeline, or after MULTI on one connection (redigo, a rueidis dedicated client), so it is queued inside MULTI: Redis answers \"ERR WATCH inside MULTI is not allowed\" and watches nothing. Watch the keys before MULTI: give them to Watch(ctx, fn, keys...), or call tx.Watch(ctx, keys...) in fn before TxPipelined.",
		Anchor:      WatchInMulti,
	},
	{
		Name: PooledTransaction, Family: FamilyAtomicity, Severity: SeverityError,
		Doc:         "a raw WATCH, MULTI or EXEC sent with Do on a pooled client, where each call may take another connection",
		Description: "WATCH, MULTI or EXEC is sent with Do on a pooled client (go-redis's *redis.Client, ClusterClient, Ring or UniversalClient): each Do may take another connection from the pool, so the WATCH protects nothing and a connection goes back to the pool inside MULTI. Use Watch(ctx, fn, keys...) with TxPipelined inside fn, or hold one connection with Conn.",
		Anchor:      PooledTransaction,
	},
	{
		Name: IgnoreDirective, Family: FamilyDirectives, Severity: SeverityWarning,
		Doc:         "a //slotlint:ignore directive without a reason, or one that suppresses nothing",
		Description: "A //slotlint:ignore directive must give a reason, //slotlint:ignore <why the keys are safe>, and must suppress a finding on its line or the line below. Give the reason, or remove a directive that no longer suppresses anything.",
		Anchor:      "suppressing-a-finding",
	},
}

const luaAnchor = "lua-scripts-lua-syntax-undeclared-key-script-arity-script-flags"

// All returns every check, family by family. The slice is the caller's.
func All() []Check {
	return slices.Clone(registry)
}

// Names returns the names of every check, in the order of All.
func Names() []string {
	names := make([]string, len(registry))
	for i, c := range registry {
		names[i] = c.Name
	}
	return names
}

// renamed maps the former names of checks to their names now: rules files
// and -disable lists that use a former name keep working.
var renamed = map[string]string{"copy-db": ClusterDB}

// Canonical returns the name of the check that name names now: itself, or
// the new name of a check that was renamed.
func Canonical(name string) string {
	if n, ok := renamed[name]; ok {
		return n
	}
	return name
}

// Lookup returns the check of that name, or of that former name.
func Lookup(name string) (Check, bool) {
	name = Canonical(name)
	for _, c := range registry {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

// ParseList parses a comma-separated list of check names, such as the
// value of -disable. Spaces around names and empty items are ignored. A
// name that is not a check is an error that lists the checks, and names
// the closest one when it looks like a typo.
func ParseList(s string) ([]string, error) {
	var names []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if _, ok := Lookup(name); !ok {
			return nil, UnknownError(name)
		}
		name = Canonical(name)
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, nil
}

// UnknownError returns the error for a name that is not a check: it says
// which name, suggests the closest check when one is near, and lists them
// all.
func UnknownError(name string) error {
	hint := ""
	if near := closest(name); near != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", near)
	}
	return fmt.Errorf("unknown check %q%s; the checks are %s", name, hint, strings.Join(Names(), ", "))
}

// closest returns the check whose name is within two edits of name, or "".
func closest(name string) string {
	best, bestDist := "", 3
	for _, c := range registry {
		if d := editdist.Levenshtein(name, c.Name); d < bestDist {
			best, bestDist = c.Name, d
		}
	}
	return best
}

// Text returns the list of checks as plain text for a command's help, such
// as the analyzer's doc: one paragraph a family, one line a check, with its
// name, its default severity and its doc.
func Text() string {
	var b strings.Builder
	var fam Family
	for _, c := range registry {
		if c.Family != fam {
			if fam != "" {
				b.WriteString("\n")
			}
			fam = c.Family
			fmt.Fprintf(&b, "%s family:\n", fam)
		}
		fmt.Fprintf(&b, "  %s (%s): %s\n", c.Name, c.Severity, c.Doc)
	}
	return b.String()
}

// Markdown returns the table of checks, in the README and in
// docs/checks/README.md: one row a check, with its name linked to its page
// in dir ("docs/checks/" from the README, "" beside the pages), its family,
// its doc and its default severity.
func Markdown(dir string) string {
	var b strings.Builder
	b.WriteString("| check | family | what it means | default |\n")
	b.WriteString("|---|---|---|---|\n")
	for _, c := range registry {
		fmt.Fprintf(&b, "| [`%s`](%s%s.md) | %s | %s | %s |\n", c.Name, dir, c.Name, c.Family, markdownText(c.Doc), c.Severity)
	}
	return b.String()
}

// Listing returns the checks as slotlint -list-checks prints them: a line a
// check, with its name, its default severity and its doc, in columns.
func Listing() string {
	width := 0
	for _, c := range registry {
		width = max(width, len(c.Name))
	}
	var b strings.Builder
	for _, c := range registry {
		fmt.Fprintf(&b, "%-*s  %-7s  %s\n", width, c.Name, c.Severity, c.Doc)
	}
	return b.String()
}

// markdownText escapes what Markdown would read as markup in a doc line.
func markdownText(s string) string {
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;")
	return r.Replace(s)
}

// A List is a set of checks named on a command line, such as -disable's:
// a flag.Value whose Set takes a comma-separated list of names (ParseList)
// and refuses a name that is not a check. Set replaces the list; the empty
// string empties it.
type List struct {
	names []string
}

// Set parses a comma-separated list of check names.
func (l *List) Set(s string) error {
	names, err := ParseList(s)
	if err != nil {
		return err
	}
	l.names = names
	return nil
}

// String returns the names, separated by commas.
func (l *List) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(l.names, ",")
}

// Has reports whether the list names the check.
func (l *List) Has(name string) bool {
	return l != nil && slices.Contains(l.names, Canonical(name))
}
