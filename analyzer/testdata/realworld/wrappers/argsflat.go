package wrappers

import (
	redigo "github.com/gomodule/redigo/redis"
)

// Origin: trojan-panel (trojan-panel-core/dao/redis, keyRds.Del): a
// redigo helper deletes the caller's keys with DEL of
// redis.Args{}.AddFlat(keys): the slice spread as one argument each. The
// callers' keys are checked.
type keyRds struct{ pool *redigo.Pool }

func (k *keyRds) Del(keys ...string) (int, error) { // want Del:`keyWrapper\(DEL "<keys...>"\)`
	c := k.pool.Get()
	defer c.Close()
	return redigo.Int(c.Do("DEL", redigo.Args{}.AddFlat(keys)...))
}

func (k *keyRds) logout(user string) {
	k.Del("account:"+user, "session:"+user) // want `DEL \(through Del at argsflat.go:\d+\) keys "account:<user>" \(hashtag unknown\) and "session:<user>" \(hashtag unknown\) may hash to different slots`
}

// Fixed: the user's keys share its hashtag.
func (k *keyRds) logoutFixed(user string) {
	k.Del("account:{"+user+"}", "session:{"+user+"}")
}
