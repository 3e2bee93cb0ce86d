package prefixed

import (
	"context"
	"fmt"

	"github.com/valkey-io/valkey-go"
)

// Origin: park285/llm-kakao-bots (game-bot-go/internal/common/pending,
// store.go): a chat's pending messages are a hash and a sorted set, both
// under the prefix a game configures ("pending:twentyq") and both with
// the chat id as their hashtag; a chat's queue is cleared in one DEL. The
// prefix, the same in both keys, holds no brace it leaves open.
type pendingStore struct {
	client valkey.Client
	prefix string
}

func (s *pendingStore) dataKey(chatID string) string {
	return fmt.Sprintf("%s:data:{%s}", s.prefix, chatID)
}

func (s *pendingStore) orderKey(chatID string) string {
	return fmt.Sprintf("%s:order:{%s}", s.prefix, chatID)
}

func (s *pendingStore) clear(ctx context.Context, chatID string) error {
	return s.client.Do(ctx, s.client.B().Del().Key(s.dataKey(chatID), s.orderKey(chatID)).Build()).Error()
}

// The same keys without the hashtag, as the project's other stores build
// them ("%s:%s" of a prefix and the chat id), may hash apart.
func (s *pendingStore) clearUntagged(ctx context.Context, chatID string) error {
	data := fmt.Sprintf("%s:data:%s", s.prefix, chatID)
	order := fmt.Sprintf("%s:order:%s", s.prefix, chatID)
	return s.client.Do(ctx, s.client.B().Del().Key(data, order).Build()).Error() // want `DEL keys "<s.prefix>:data:<chatID>" \(hashtag unknown\) and "<s.prefix>:order:<chatID>" \(hashtag unknown\) may hash to different slots`
}
