package scanned

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Origin: Martindeeepdark/seckill-go (services/stock-service/internal/
// infrastructure/persistence/redis.go): a flash-sale store cleans up an
// activity's keys by pattern. deleteKeysByPattern SCANs the pattern its
// callers give and DELs each page in one call; the patterns,
// "seckill:product:sku:stock:<activity>:*" and the like, have no hashtag,
// so a page holds keys of several slots.
type StockStore struct {
	rdb redis.UniversalClient
}

func stockPattern(activityNo string) string {
	return fmt.Sprintf("seckill:product:sku:stock:%s:*", activityNo)
}

func purchasePattern(activityNo string) string {
	return fmt.Sprintf("seckill:user:purchase:%s:*", activityNo)
}

func (s *StockStore) deleteKeysByPattern(ctx context.Context, pattern string) (int64, error) {
	var cursor uint64
	deleted := int64(0)
	for {
		keys, next, err := s.rdb.Scan(ctx, cursor, pattern, 100).Result() // want `SCAN on s.rdb, a client that may be a cluster, reads one node's keys only`
		if err != nil {
			return deleted, err
		}
		if len(keys) > 0 {
			n, err := s.rdb.Del(ctx, keys...).Result() // want `DEL keys built as "seckill:(product:sku:stock|user:purchase):<activityNo>:<\*>" from different values may hash to different slots`
			if err != nil {
				return deleted, err
			}
			deleted += n
		}
		if cursor = next; cursor == 0 {
			return deleted, nil
		}
	}
}

func (s *StockStore) CleanupActivity(ctx context.Context, activityNo string) (int64, error) {
	total := int64(0)
	for _, pattern := range []string{stockPattern(activityNo), purchasePattern(activityNo)} {
		n, err := s.deleteKeysByPattern(ctx, pattern)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// Fixed: the activity's keys live under its hashtag, and each key found is
// deleted alone (a page of one hashtag's keys could be deleted together,
// but SCAN still reads one node only on a cluster).
func (s *StockStore) deleteEach(ctx context.Context, pattern string) error {
	iter := s.rdb.Scan(ctx, 0, pattern, 100).Iterator() // want `SCAN on s.rdb, a client that may be a cluster, reads one node's keys only`
	for iter.Next(ctx) {
		if err := s.rdb.Del(ctx, iter.Val()).Err(); err != nil {
			return err
		}
	}
	return iter.Err()
}

func (s *StockStore) CleanupTagged(ctx context.Context, activityNo string) error {
	return s.deleteEach(ctx, "seckill:{"+activityNo+"}:*")
}
