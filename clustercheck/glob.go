package clustercheck

// globMatch reports whether s matches a Redis glob pattern, as SCAN MATCH
// and KEYS do (stringmatchlen in Redis's util.c): '*' any run, '?' any
// byte, "[...]" a set with ranges and '^' for negation, '\' escapes.
func globMatch(pattern, s string) bool {
	p, i := 0, 0
	for p < len(pattern) {
		switch pattern[p] {
		case '*':
			for p+1 < len(pattern) && pattern[p+1] == '*' {
				p++
			}
			if p+1 == len(pattern) {
				return true
			}
			for j := i; j <= len(s); j++ {
				if globMatch(pattern[p+1:], s[j:]) {
					return true
				}
			}
			return false
		case '?':
			if i >= len(s) {
				return false
			}
			i++
		case '[':
			if i >= len(s) {
				return false
			}
			p++
			not := p < len(pattern) && pattern[p] == '^'
			if not {
				p++
			}
			match := false
			for {
				if p >= len(pattern) {
					p-- // an unclosed set ends the pattern, as in Redis
					break
				}
				c := pattern[p]
				if c == ']' {
					break
				}
				if c == '\\' && p+1 < len(pattern) {
					p++
					if pattern[p] == s[i] {
						match = true
					}
				} else if p+2 < len(pattern) && pattern[p+1] == '-' {
					lo, hi := c, pattern[p+2]
					if lo > hi {
						lo, hi = hi, lo
					}
					if s[i] >= lo && s[i] <= hi {
						match = true
					}
					p += 2
				} else if c == s[i] {
					match = true
				}
				p++
			}
			if not {
				match = !match
			}
			if !match {
				return false
			}
			i++
		case '\\':
			if p+1 < len(pattern) {
				p++
			}
			fallthrough
		default:
			if i >= len(s) || pattern[p] != s[i] {
				return false
			}
			i++
		}
		p++
	}
	return i == len(s)
}
