// Package peers reduces gotd/contrib v0.21.0's storage package: a peer
// and the keys (usernames, phones) it derives from itself.
package peers

import "strconv"

type User struct{ Username, Phone string }

type Peer struct {
	ID   int64
	User *User
}

// Keys returns the names the peer is found by.
func (p *Peer) Keys() []string {
	if p.User == nil {
		return nil
	}
	r := make([]string, 0, 2)
	if p.User.Username != "" {
		r = append(r, p.User.Username)
	}
	if p.User.Phone != "" {
		r = append(r, p.User.Phone)
	}
	return r
}

// Key returns the peer's own key.
func (p Peer) Key() string { return "peer" + strconv.FormatInt(p.ID, 10) } // want Key:`keyFunc\("peer<p.ID>"\)`
