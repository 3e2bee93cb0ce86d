// Package pairslices holds MSETs given one slice of keys and values, which
// go-redis spreads into MSET's pairs (TestMSetFlattened), reduced from
// TimurTimergalin/team-dynamics-project-1 (services/user_event/redis,
// Register and CreateChallenge): a player's fields and a challenge
// message's fields are keys of their own, written in one MSET in a WATCH
// transaction. The message's id is made inside the function that Watch
// runs, in a variable declared outside it.
package pairslices

import (
	"context"
	"fmt"
	"math/rand"

	"github.com/redis/go-redis/v9"
)

type playerKeys struct{ id int64 }

func (k playerKeys) name() string   { return fmt.Sprintf("name:%d", k.id) }
func (k playerKeys) rating() string { return fmt.Sprintf("rating:%d", k.id) }
func (k playerKeys) status() string { return fmt.Sprintf("status:%d", k.id) }

type messageKeys struct{ id string }

func (k messageKeys) kind() string   { return "type:" + k.id }
func (k messageKeys) sender() string { return "senderName:" + k.id }

func register(ctx context.Context, rdb *redis.Client, id int64, name string) error {
	keys := playerKeys{id}
	return rdb.Watch(ctx, func(tx *redis.Tx) error { // want `WATCH transaction keys "status:<id>" \(no hashtag\) and "name:<id>" \(no hashtag\) may hash to different slots`
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.MSet(ctx, []interface{}{ // want `MSET keys "name:<id>" \(no hashtag\) and "rating:<id>" \(no hashtag\) may hash to different slots`
				keys.name(), name,
				keys.rating(), 1000,
				keys.status(), 1,
			})
			return nil
		})
		return err
	}, keys.status())
}

func challenge(ctx context.Context, rdb *redis.Client, from string) (string, error) {
	var msgID string
	err := rdb.Watch(ctx, func(tx *redis.Tx) error { // want `WATCH transaction keys "lobby" \(slot \d+\) and "type:<rand.Int63\(\)>" \(no hashtag\) may hash to different slots`
		msgID = fmt.Sprint(rand.Int63())
		msg := messageKeys{msgID}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.MSet(ctx, []string{msg.kind(), "challenge", msg.sender(), from}) // want `MSET keys "type:<rand.Int63\(\)>" \(no hashtag\) and "senderName:<rand.Int63\(\)>" \(no hashtag\) may hash to different slots`
			return nil
		})
		return err
	}, "lobby")
	return msgID, err
}

// The fix: a player's fields and a message's fields under their id's
// hashtag. The message's id is the one its function made, not the empty
// value the variable held before: the keys share its hashtag.
type taggedPlayer struct{ id int64 }

func (k taggedPlayer) name() string   { return fmt.Sprintf("{player:%d}:name", k.id) }
func (k taggedPlayer) rating() string { return fmt.Sprintf("{player:%d}:rating", k.id) }
func (k taggedPlayer) status() string { return fmt.Sprintf("{player:%d}:status", k.id) }

func registerTagged(ctx context.Context, rdb *redis.Client, id int64, name string) error {
	keys := taggedPlayer{id}
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.MSet(ctx, []interface{}{keys.name(), name, keys.rating(), 1000, keys.status(), 1})
			return nil
		})
		return err
	}, keys.status())
}

func challengeTagged(ctx context.Context, rdb *redis.Client, from string) (string, error) {
	var msgID string
	send := func() error {
		msgID = fmt.Sprint(rand.Int63())
		_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.MSet(ctx, []string{"{" + msgID + "}:type", "challenge", "{" + msgID + "}:sender", from})
			return nil
		})
		return err
	}
	return msgID, send()
}

// The keys of a message whose id the closure makes before it uses it:
// "{<id>}:type", never "{}:type" (an empty hashtag, which would hash
// each key whole).
func dropTagged(ctx context.Context, rdb *redis.Client) string {
	var msgID string
	func() {
		msgID = fmt.Sprint(rand.Int63())
		rdb.Del(ctx, "{"+msgID+"}:type", "{"+msgID+"}:sender")
	}()
	return msgID
}
