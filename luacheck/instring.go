package luacheck

// InString reports whether Lua source that ends with prefix ends inside a
// short string literal ('...' or "..."), so that text put after it is part
// of that string: a script that Go code joins from pieces around a value
// (`"redis.call('del', '" + prefix + ":lock')"`). Source with a long
// bracket ([[...]], --[[...]]) is not read: false.
func InString(prefix string) bool {
	var quote byte
	for i := 0; i < len(prefix); i++ {
		c := prefix[i]
		switch {
		case quote != 0:
			switch c {
			case '\\':
				i++
			case quote:
				quote = 0
			case '\n':
				return false // an unfinished string: not Lua
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' && i+1 < len(prefix) && (prefix[i+1] == '[' || prefix[i+1] == '='):
			return false
		case c == '-' && i+1 < len(prefix) && prefix[i+1] == '-':
			// A comment, to the end of its line.
			for i < len(prefix) && prefix[i] != '\n' {
				if prefix[i] == '[' && i+1 < len(prefix) && (prefix[i+1] == '[' || prefix[i+1] == '=') {
					return false
				}
				i++
			}
		}
	}
	return quote != 0
}
