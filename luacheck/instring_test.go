package luacheck

import "testing"

func TestInString(t *testing.T) {
	for _, tc := range []struct {
		prefix string
		want   bool
	}{
		{`for _,k in ipairs(redis.call('keys','`, true},
		{`return redis.call("del", "`, true},
		{`return redis.call("del", "a\"`, true},
		{`return redis.call("del", "a") .. `, false},
		{`local n = `, false},
		{`-- it's a comment` + "\n" + `return redis.call('get', '`, true},
		{`-- don't` + "\n" + `return `, false},
		{`local s = [[`, false},
		{`local s = 'a` + "\n", false},
		{"", false},
	} {
		if got := InString(tc.prefix); got != tc.want {
			t.Errorf("InString(%q) = %v, want %v", tc.prefix, got, tc.want)
		}
	}
}
