// Package cachekeys is a registry of keyspaces, after hmchangw/newchat
// (pkg/cachekeys): each keyspace is a package variable set to a struct
// literal of a prefix and a suffix, and one method builds every key from
// the fields of its receiver. The room's metadata is hashtagged, its
// subscribers are not; a badge set and its freshness marker share the
// account's hashtag.
package cachekeys

// Keyspace is one cache's key layout: a literal prefix, a variable part
// and a literal suffix.
type Keyspace struct {
	Name     string // want Name:`keyField\("roommeta", "roomsubs", "presence.conns", "presence.index", "badge", "badge.fresh"\)`
	Prefix   string // want Prefix:`keyField\("room:{", "room:v3:", "presence:{", "presence:sweep", "badge:{", "badge:fresh:{"\)`
	Suffix   string // want Suffix:`keyField\("}:meta", ":subs", "}:conns", "}"\)`
	Variable bool
}

func (k Keyspace) build(id string) string {
	return k.Prefix + id + k.Suffix
}

var (
	roomMeta = Keyspace{
		Name: "roommeta", Prefix: "room:{", Suffix: "}:meta", Variable: true,
	}
	roomSubs = Keyspace{
		Name: "roomsubs", Prefix: "room:v3:", Suffix: ":subs", Variable: true,
	}
	presenceConns = Keyspace{
		Name: "presence.conns", Prefix: "presence:{", Suffix: "}:conns", Variable: true,
	}
	presenceSweep = Keyspace{Name: "presence.index", Prefix: "presence:sweep"}
	badgeSet      = Keyspace{
		Name: "badge", Prefix: "badge:{", Suffix: "}", Variable: true,
	}
	badgeFresh = Keyspace{
		Name: "badge.fresh", Prefix: "badge:fresh:{", Suffix: "}", Variable: true,
	}
)

func RoomMeta(roomID string) string { return roomMeta.build(roomID) } // want RoomMeta:`keyFunc\("room:{<roomID>}:meta"\)`

func RoomSubs(roomID string) string { return roomSubs.build(roomID) } // want RoomSubs:`keyFunc\("room:v3:<roomID>:subs"\)`

func PresenceConns(account string) string { return presenceConns.build(account) } // want PresenceConns:`keyFunc\("presence:{<account>}:conns"\)`

func PresenceSweep() string { return presenceSweep.Prefix } // want PresenceSweep:`keyFunc\("presence:sweep"\)`

func BadgeSet(account string) string { return badgeSet.build(account) } // want BadgeSet:`keyFunc\("badge:{<account>}"\)`

func BadgeFresh(account string) string { return badgeFresh.build(account) } // want BadgeFresh:`keyFunc\("badge:fresh:{<account>}"\)`
