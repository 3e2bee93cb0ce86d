// Package sentlist is reduced from SkySock/lode
// (services/user-service/internal/repository/session.go): a session
// store on valkey-go saves a refresh token and adds it to its user's set
// of sessions on a dedicated connection: WATCH of both keys, then
// MULTI/EXEC sent by DoMulti of a valkey.Commands literal held in a
// variable. The transaction's commands, spread from the variable, were
// not read, so only the WATCH was reported.
package sentlist

import (
	"context"
	"fmt"

	"github.com/valkey-io/valkey-go"
)

type store struct{ client valkey.Client }

func (r *store) save(ctx context.Context, token, userID, data string) error {
	tokenKey := fmt.Sprintf("refresh_token:%s", token)
	sessionKey := fmt.Sprintf("user_session:%s", userID)
	c, cancel := r.client.Dedicate()
	defer cancel()
	c.Do(ctx, c.B().Watch().Key(tokenKey, sessionKey).Build()) // want `WATCH keys "refresh_token:<token>" \(hashtag unknown\) and "user_session:<userID>" \(hashtag unknown\) may hash to different slots`
	cmds := valkey.Commands{
		c.B().Multi().Build(),
		c.B().Set().Key(tokenKey).Value(data).Build(),
		c.B().Sadd().Key(sessionKey).Member(token).Build(),
		c.B().Exec().Build(),
	}
	for _, res := range c.DoMulti(ctx, cmds...) { // want `MULTI/EXEC transaction keys "refresh_token:<token>" \(hashtag unknown\) and "user_session:<userID>" \(hashtag unknown\) may hash to different slots`
		if err := res.Error(); err != nil {
			return err
		}
	}
	return nil
}

// The fix: the token under its user's hashtag.
func (r *store) saveTagged(ctx context.Context, token, userID, data string) error {
	tokenKey := fmt.Sprintf("user:{%s}:refresh_token:%s", userID, token)
	sessionKey := fmt.Sprintf("user:{%s}:sessions", userID)
	c, cancel := r.client.Dedicate()
	defer cancel()
	c.Do(ctx, c.B().Watch().Key(tokenKey, sessionKey).Build())
	cmds := valkey.Commands{
		c.B().Multi().Build(),
		c.B().Set().Key(tokenKey).Value(data).Build(),
		c.B().Sadd().Key(sessionKey).Member(token).Build(),
		c.B().Exec().Build(),
	}
	for _, res := range c.DoMulti(ctx, cmds...) {
		if err := res.Error(); err != nil {
			return err
		}
	}
	return nil
}
