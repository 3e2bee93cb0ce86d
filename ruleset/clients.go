package ruleset

// Kinds for client libraries that build a command as a value and send it
// later, such as rueidis and valkey-go:
//
//	c.Do(ctx, c.B().Rename().Key(a).Newkey(b).Build())
//
// Builder.Rename starts the chain and names its command (KindBuilder),
// RenameKey.Newkey takes key arguments (KindBuilderKeys), and Client.Do
// sends what the chain built (KindSend). Other methods of the chain take no
// keys and are not listed.
const (
	// KindBuilder starts building a command (Builder.Rename); its command
	// is the chain's.
	KindBuilder MethodKind = "builder"
	// KindBuilderKeys is a method of a builder chain whose parameters
	// selected by keys are keys of the command being built
	// (RenameKey.Newkey).
	KindBuilderKeys MethodKind = "builder-keys"
	// KindSend sends the commands that builder chains built, selected by
	// args: one (Do), or several in one round trip (DoMulti), which is a
	// pipeline, a transaction only between MULTI and EXEC. A raw command
	// built as a value (radix's conn.Do(radix.Cmd(nil, "MULTI"))) goes out
	// on the connection of the send method it is handed to.
	KindSend MethodKind = "send"
)

// The kinds above are registered here, beside their definitions, so that
// the loader and Validate check them like the others.
func init() {
	kindRules[KindBuilder] = kindRule{[]string{"command"}, nil}
	kindRules[KindBuilderKeys] = kindRule{[]string{"keys"}, []string{"keys"}}
	kindRules[KindSend] = kindRule{[]string{"args"}, []string{"args"}}
	kindOrder = append(kindOrder, KindBuilder, KindBuilderKeys, KindSend)
}
