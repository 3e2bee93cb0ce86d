package ruleset

import (
	"strings"
	"testing"
)

// The member-replies section lists the commands whose reply lists the
// members of one key; a user's file adds to the built-in one, each entry
// must be a command of the table, and a name not in upper case is an error
// at its position.
func TestMemberReplies(t *testing.T) {
	base, err := ParseRules("rules.yaml", []byte("version: 1\nmember-replies: [SMEMBERS, HKEYS]\ncommands:\n  smembers: {arity: 2}\n  hkeys: {arity: 2}\n  lrange: {arity: 4}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !base.RepliesMembers("SMEMBERS") || !base.RepliesMembers("hkeys") || base.RepliesMembers("LRANGE") {
		t.Errorf("member replies = %v", base.MemberReplies)
	}
	over, err := ParseRules("mine.yaml", []byte("version: 1\nmember-replies: [LRANGE, SMEMBERS]\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := base.Merge(over)
	if len(m.MemberReplies) != 3 || !m.RepliesMembers("LRANGE") {
		t.Errorf("merged member replies = %v, want SMEMBERS, HKEYS, LRANGE", m.MemberReplies)
	}
	if err := m.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	unknown, err := ParseRules("mine.yaml", []byte("version: 1\nmember-replies: [SMEMBERZ]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := base.Merge(unknown).Validate(); err == nil || !strings.Contains(err.Error(), "mine.yaml:2:18: member reply SMEMBERZ is not in the commands table") {
		t.Errorf("Validate of an unknown command: %v", err)
	}
	_, err = ParseRules("bad.yaml", []byte("version: 1\nmember-replies: [smembers]\n"))
	if err == nil || !strings.Contains(err.Error(), `bad.yaml:2:18: member reply "smembers" is not a command name in upper case`) {
		t.Errorf("a lower-case name: %v", err)
	}
}
