// Command demo runs the demo application against a Redis Cluster.
package main

import (
	"context"
	"log"
	"os"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/testdata/demo/queue"
	"github.com/slotlint/slotlint/testdata/demo/shop"
)

func main() {
	ctx := context.Background()
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: os.Args[1:]})
	defer rdb.Close()
	orders := queue.New(rdb, "orders")
	if err := orders.Enqueue(ctx, "42", `{"sku":"sku123"}`); err != nil {
		log.Fatal(err)
	}
	if err := shop.Reserve(ctx, rdb); err != nil {
		log.Print(err)
	}
	if err := shop.RefreshProfile(ctx, rdb, 123, map[string]any{"name": "Ada"}); err != nil {
		log.Print(err)
	}
}
