// Package v6 holds the atomicity checks on go-redis v6 and v7, whose
// Tx.Pipelined differ: v6's queues in MULTI/EXEC, v7's sends a plain
// pipeline (internal/matrix's TestTxPipelinedOfWatch).
package v6

import (
	"github.com/go-redis/redis"
	redis7 "github.com/go-redis/redis/v7"
)

// Origin: s8sg/goflow v0.1.4 (core/redis-statestore/redis.go, Update): a
// compare-and-set of a flow's partial state, WATCH and GET of the key,
// then SET in tx.Pipelined, which in go-redis v6 is the MULTI/EXEC.
func update(client *redis.Client, key, old, value string) error {
	return client.Watch(func(tx *redis.Tx) error {
		cur, err := tx.Get(key).Result()
		if err != nil && err != redis.Nil {
			return err
		}
		if cur != old {
			return nil
		}
		_, err = tx.Pipelined(func(pipe redis.Pipeliner) error {
			pipe.Set(key, value, 0)
			return nil
		})
		return err
	}, key)
}

// The same code on go-redis v7, whose tx.Pipelined is no transaction.
func updateV7(client *redis7.Client, key, old, value string) error {
	return client.Watch(func(tx *redis7.Tx) error {
		cur, err := tx.Get(key).Result()
		if err != nil && err != redis7.Nil {
			return err
		}
		if cur != old {
			return nil
		}
		_, err = tx.Pipelined(func(pipe redis7.Pipeliner) error {
			pipe.Set(key, value, 0) // want `SET "<key>" is sent in a plain pipeline inside the function of Watch on "<key>", and the function queues no MULTI/EXEC`
			return nil
		})
		return err
	}, key)
}

// Fixed on v7: TxPipelined.
func updateV7Fixed(client *redis7.Client, key, old, value string) error {
	return client.Watch(func(tx *redis7.Tx) error {
		cur, err := tx.Get(key).Result()
		if err != nil && err != redis7.Nil {
			return err
		}
		if cur != old {
			return nil
		}
		_, err = tx.TxPipelined(func(pipe redis7.Pipeliner) error {
			pipe.Set(key, value, 0)
			return nil
		})
		return err
	}, key)
}
