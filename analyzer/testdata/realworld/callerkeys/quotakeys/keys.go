// Package quotakeys reduces LUCI's server/quota/internal/quotakeys: an
// account's key is a prefix and the account's fields, escaped.
package quotakeys

import "strings"

type AccountID struct {
	AppID, Realm, Namespace, Name string
}

const accountKeyPrefix = "a"

func serializeRedisKey(prefix string, id *AccountID) string {
	return strings.Join([]string{prefix, "a", escape(id.AppID), escape(id.Realm), escape(id.Namespace), escape(id.Name)}, "~")
}

func escape(s string) string { return strings.ReplaceAll(s, "~", "~~") }

// AccountKey returns the key of an account.
func AccountKey(id *AccountID) string { // want AccountKey:`keyFunc\("a~a~<id.AppID>~<id.Realm>~<id.Namespace>~<id.Name>"\)`
	return serializeRedisKey(accountKeyPrefix, id)
}
