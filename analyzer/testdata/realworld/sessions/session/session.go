// Package session is a web framework's session manager, after
// astaxie/beego (session): it reaches its stores through the Provider
// interface, and knows nothing of the Redis one.
package session

import (
	"crypto/rand"
	"encoding/hex"
)

// Provider is what a session store implements.
type Provider interface {
	SessionRegenerate(oldsid, sid string) error
	SessionDestroy(sid string) error
}

var providers = map[string]Provider{}

// Register makes a store available by name, as beego's session.Register.
func Register(name string, p Provider) { providers[name] = p }

type Manager struct {
	provider Provider
}

func (m *Manager) sessionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Regenerate moves a session to a new id.
func (m *Manager) Regenerate(oldsid string) (string, error) {
	sid := m.sessionID()
	return sid, m.provider.SessionRegenerate(oldsid, sid)
}
