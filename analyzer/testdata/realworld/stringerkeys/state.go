// Package stringerkeys is reduced from inngest/inngest
// (pkg/connect/state/redis.go): a connection state manager over rueidis
// keeps each environment's connections and worker groups under the
// hashtag of the environment's id, built as fmt.Sprintf("{%s}:conns",
// envID) in one key function and as fmt.Sprintf("{%s}:groups",
// envID.String()) in another. fmt prints the id by its String method, so
// both name one hashtag, and the script's keys share a slot.
package stringerkeys

import (
	"context"
	"fmt"

	"github.com/redis/rueidis"

	"slotlint.test/realworld/stringerkeys/ids"
)

var getConnsByGroup = rueidis.NewLuaScript(`
local conns = redis.call("HGETALL", KEYS[1])
local group = redis.call("SMEMBERS", KEYS[2])
return {conns, group}
`)

type stateManager struct{ client rueidis.Client }

func (r *stateManager) connKey(envID ids.UUID) string {
	return fmt.Sprintf("{%s}:conns", envID)
}

func (r *stateManager) groupIDKey(envID ids.UUID, groupID string) string {
	return fmt.Sprintf("{%s}:groups:%s", envID.String(), groupID)
}

// The bug the check prevents: the group's key under the group's id.
func (r *stateManager) groupKeyByGroup(envID ids.UUID, groupID string) string {
	return fmt.Sprintf("{%s}:groups:%s", groupID, envID.String())
}

func (r *stateManager) connsByGroup(ctx context.Context, envID ids.UUID, groupID string) error {
	keys := []string{r.connKey(envID), r.groupIDKey(envID, groupID)}
	return getConnsByGroup.Exec(ctx, r.client, keys, nil).Error()
}

func (r *stateManager) connsByGroupBad(ctx context.Context, envID ids.UUID, groupID string) error {
	keys := []string{r.connKey(envID), r.groupKeyByGroup(envID, groupID)}
	return getConnsByGroup.Exec(ctx, r.client, keys, nil).Error() // want `EVALSHA keys "\{<envID>\}:conns" \(hashtag "\{<envID>\}"\) and "\{<groupID>\}:groups:<envID>" \(hashtag "\{<groupID>\}"\) may hash to different slots`
}
