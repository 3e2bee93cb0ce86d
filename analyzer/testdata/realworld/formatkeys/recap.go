package formatkeys

import (
	"context"

	"github.com/redis/rueidis"

	"slotlint.test/realworld/formatkeys/rediskeys"
)

// Origin: nekomeowww/insights-bot
// (internal/models/chathistories/private_forwarded.go,
// DisableRecapForwardedFromPrivateMessages): one DEL of a user's batch
// and switch, each key a constant of the key type of another package
// formatted with the user's id. The two formats differ after the id, so
// the keys hash to different slots.
func disableRecap(ctx context.Context, c rueidis.Client, userID int64) error {
	del := c.B().Del().
		Key(rediskeys.RecapBatch1.Format(userID)).
		Key(rediskeys.RecapControl1.Format(userID)).
		Build()
	return c.Do(ctx, del).Error() // want `DEL keys "recap/replay_from_private_message/<userID>/batch" \(no hashtag\) and "recap/replay_from_private_message/<userID>" \(no hashtag\) may hash to different slots`
}

// The fixed form: the user's id is the hashtag of both keys.
func disableRecapFixed(ctx context.Context, c rueidis.Client, userID int64) error {
	del := c.B().Del().
		Key(rediskeys.RecapBatchTagged1.Format(userID)).
		Key(rediskeys.RecapControlTagged1.Format(userID)).
		Build()
	return c.Do(ctx, del).Error()
}
