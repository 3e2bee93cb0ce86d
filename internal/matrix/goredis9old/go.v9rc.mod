module github.com/slotlint/slotlint/internal/matrix/goredis9old

go 1.26.0

require github.com/go-redis/redis/v9 v9.0.0-rc.1

require (
	github.com/cespare/xxhash/v2 v2.1.2 // indirect
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f // indirect
)
