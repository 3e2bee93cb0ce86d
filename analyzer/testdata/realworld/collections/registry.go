package collections

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: goa.design/pulse (streaming/reader.go, Reader.AddStream and
// Reader.xread): a reader keeps the keys of the streams it reads, and as
// many cursors, in two slice fields. The constructor sets each to one
// element; AddStream appends to both, RemoveStream drops an element of
// both, each event read moves its stream's cursor, and every read sends
// XREAD of a copy of the keys followed by the cursors. The streams a
// reader is given later are other streams, each of its own slot.
type stream struct {
	name string
	key  string
}

func newStream(name string) *stream {
	return &stream{name: name, key: "pulse:stream:" + name}
}

type reader struct {
	rdb           *redis.ClusterClient
	streamKeys    []string
	streamCursors []string
}

func newReader(rdb *redis.ClusterClient, s *stream, lastID string) *reader {
	return &reader{rdb: rdb, streamKeys: []string{s.key}, streamCursors: []string{lastID}}
}

func (r *reader) addStream(s *stream, startID string) {
	for _, k := range r.streamKeys {
		if k == s.key {
			return
		}
	}
	r.streamKeys = append(r.streamKeys, s.key)
	r.streamCursors = append(r.streamCursors, startID)
}

func (r *reader) removeStream(s *stream) {
	for i, k := range r.streamKeys {
		if k == s.key {
			r.streamKeys = append(r.streamKeys[:i], r.streamKeys[i+1:]...)
			r.streamCursors = append(r.streamCursors[:i], r.streamCursors[i+1:]...)
			return
		}
	}
}

func (r *reader) moved(stream, id string) {
	for i := range r.streamKeys {
		if r.streamKeys[i] == stream {
			r.streamCursors[i] = id
		}
	}
}

func (r *reader) xread(ctx context.Context) ([]redis.XStream, error) {
	readStreams := make([]string, len(r.streamKeys))
	copy(readStreams, r.streamKeys)
	readStreams = append(readStreams, r.streamCursors...)
	return r.rdb.XRead(ctx, &redis.XReadArgs{Streams: readStreams}).Result() // want `XREAD keys built as "pulse:stream:<name>" from different values may hash to different slots`
}

// Fixed: every stream key holds the hashtag "{pulse}", so whatever
// streams a reader is given, one XREAD reads them in one slot.
type taggedReader struct {
	rdb           *redis.ClusterClient
	streamKeys    []string
	streamCursors []string
}

func taggedStreamKey(name string) string { return "{pulse}:stream:" + name }

func newTaggedReader(rdb *redis.ClusterClient, name, lastID string) *taggedReader {
	return &taggedReader{rdb: rdb, streamKeys: []string{taggedStreamKey(name)}, streamCursors: []string{lastID}}
}

func (r *taggedReader) addStream(name, startID string) {
	r.streamKeys = append(r.streamKeys, taggedStreamKey(name))
	r.streamCursors = append(r.streamCursors, startID)
}

func (r *taggedReader) moved(stream, id string) {
	for i := range r.streamKeys {
		if r.streamKeys[i] == stream {
			r.streamCursors[i] = id
		}
	}
}

func (r *taggedReader) xread(ctx context.Context) ([]redis.XStream, error) {
	readStreams := make([]string, len(r.streamKeys))
	copy(readStreams, r.streamKeys)
	readStreams = append(readStreams, r.streamCursors...)
	return r.rdb.XRead(ctx, &redis.XReadArgs{Streams: readStreams}).Result()
}
