// Package purge holds the SCAN pages of one event, in a package of its own:
// its key helper returns a prefix with a hashtag, which says that the
// package tags its prefixes (checking.md, maybe-cross-slot).
package purge

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: Sanjay-Mx21/holdfast (internal/inventory/store.go, Store.Purge;
// keys.go): an event's keys are "inv:{<event>}:..."; Purge SCANs the
// event's prefix, keysFor(eventID).prefix() + "*", and UNLINKs each page
// of 500 in one call. The prefix's value is one in every key of the
// reply, so each page is under the event's hashtag. The bad form SCANs a
// prefix with no hashtag.
type invKeys struct{ event string }

func invKeysFor(eventID string) invKeys { return invKeys{event: eventID} }

func (k invKeys) prefix() string { return "inv:{" + k.event + "}:" }

func purgeEvent(ctx context.Context, rdb redis.UniversalClient, eventID string) error {
	iter := rdb.Scan(ctx, 0, invKeysFor(eventID).prefix()+"*", 1000).Iterator() // want `SCAN on rdb, a client that may be a cluster, reads one node's keys only`
	var batch []string
	for iter.Next(ctx) {
		batch = append(batch, iter.Val())
		if len(batch) == 500 {
			if err := rdb.Unlink(ctx, batch...).Err(); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	if err := iter.Err(); err != nil {
		return err
	}
	if len(batch) > 0 {
		return rdb.Unlink(ctx, batch...).Err()
	}
	return nil
}

type plainInvKeys struct{ event string }

func plainInvKeysFor(eventID string) plainInvKeys { return plainInvKeys{event: eventID} }

func (k plainInvKeys) prefix() string { return "inv:" + k.event + ":" }

func purgeEventPlain(ctx context.Context, rdb redis.UniversalClient, eventID string) error {
	iter := rdb.Scan(ctx, 0, plainInvKeysFor(eventID).prefix()+"*", 1000).Iterator() // want `SCAN on rdb, a client that may be a cluster, reads one node's keys only`
	var batch []string
	for iter.Next(ctx) {
		batch = append(batch, iter.Val())
	}
	if err := iter.Err(); err != nil {
		return err
	}
	return rdb.Unlink(ctx, batch...).Err() // want `UNLINK keys built as "inv:<k.event>:<\*>" from different values may hash to different slots`
}
