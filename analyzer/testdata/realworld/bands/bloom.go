package bands

import (
	"fmt"

	"github.com/go-redis/redis/v7"
)

// Origin: lichao-mobanche/bloom-filter-redis (bloom/redis.go,
// NewRedisStorage and Init): a bloom filter keeps one bitmap per hash
// function, "<key>.1" to "<key>.k", built by index in a loop; EXISTS of
// all of them, before the slice is kept in the store's field, and a
// MULTI/EXEC over them are each of several slots. Init makes them again,
// each stored by index into the field; Append sets a bit of each in one
// MULTI/EXEC, ranging over the field.
type BloomFilter struct{ key string }

type RedisStorage struct {
	client  *redis.Client
	bf      *BloomFilter
	filters []string
}

func (s RedisStorage) getRedisKey(i uint) string {
	return fmt.Sprintf("%s.%d", s.bf.key, i)
}

func NewRedisStorage(client *redis.Client, bf *BloomFilter, hashIter uint) (*RedisStorage, error) {
	store := RedisStorage{client: client, bf: bf, filters: make([]string, hashIter)}
	keys := make([]string, hashIter)
	for i := uint(0); i < hashIter; i++ {
		keys[i] = store.getRedisKey(i + 1)
	}
	exists, err := client.Exists(keys...).Result() // want `EXISTS keys built as "<store.bf.key>.<i \+ 1>" from different values may hash to different slots`
	if err != nil {
		return nil, err
	}
	if uint(exists) == hashIter {
		store.filters = keys
	}
	return &store, nil
}

func (s *RedisStorage) Init(hashIter, size uint) error {
	pipe := s.client.TxPipeline() // want `MULTI/EXEC transaction keys built as "<s.bf.key>.<k \+ 1>" from different values may hash to different slots`
	defer pipe.Close()
	for k := uint(0); k < hashIter; k++ {
		filterKey := s.getRedisKey(k + 1)
		pipe.Del(filterKey)
		pipe.SetBit(filterKey, int64(size), 0)
		s.filters[k] = filterKey
	}
	_, err := pipe.Exec()
	if err != nil {
		for k := uint(0); k < hashIter; k++ {
			s.filters[k] = ""
		}
	}
	return err
}

func (s *RedisStorage) Append(offset int64) error {
	pipe := s.client.TxPipeline() // want `MULTI/EXEC transaction keys built as "<store.bf.key>.<i \+ 1>" from different values may hash to different slots`
	defer pipe.Close()
	for _, fkey := range s.filters {
		pipe.SetBit(fkey, offset, 1)
	}
	_, err := pipe.Exec()
	return err
}

// Fixed: the key in a hashtag, each bitmap "{<key>}.<i>".
type TaggedStorage struct {
	client  *redis.Client
	bf      *BloomFilter
	filters []string
}

func (s TaggedStorage) taggedKey(i uint) string {
	return fmt.Sprintf("{%s}.%d", s.bf.key, i)
}

func NewTaggedStorage(client *redis.Client, bf *BloomFilter, hashIter uint) (*TaggedStorage, error) {
	store := TaggedStorage{client: client, bf: bf, filters: make([]string, hashIter)}
	keys := make([]string, hashIter)
	for i := uint(0); i < hashIter; i++ {
		keys[i] = store.taggedKey(i + 1)
	}
	exists, err := client.Exists(keys...).Result()
	if err != nil {
		return nil, err
	}
	if uint(exists) == hashIter {
		store.filters = keys
	}
	return &store, nil
}

func (s *TaggedStorage) Init(hashIter, size uint) error {
	pipe := s.client.TxPipeline()
	defer pipe.Close()
	for k := uint(0); k < hashIter; k++ {
		filterKey := s.taggedKey(k + 1)
		pipe.Del(filterKey)
		pipe.SetBit(filterKey, int64(size), 0)
		s.filters[k] = filterKey
	}
	_, err := pipe.Exec()
	if err != nil {
		for k := uint(0); k < hashIter; k++ {
			s.filters[k] = ""
		}
	}
	return err
}

func (s *TaggedStorage) Append(offset int64) error {
	pipe := s.client.TxPipeline()
	defer pipe.Close()
	for _, fkey := range s.filters {
		pipe.SetBit(fkey, offset, 1)
	}
	_, err := pipe.Exec()
	return err
}
