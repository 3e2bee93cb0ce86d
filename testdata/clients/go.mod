module slotlint.demo/clients

go 1.26.0

require (
	github.com/gomodule/redigo v1.9.3
	github.com/redis/rueidis v1.0.79
	github.com/valkey-io/valkey-go v1.0.79
)

require golang.org/x/sys v0.47.0 // indirect
