module github.com/slotlint/slotlint

go 1.26.0

require (
	github.com/go-redis/redis v6.15.9+incompatible
	github.com/go-redis/redis/v7 v7.4.1
	github.com/go-redis/redis/v8 v8.11.5
	github.com/golangci/plugin-module-register v0.1.2
	github.com/redis/go-redis/v9 v9.23.0
	github.com/spf13/pflag v1.1.0
	github.com/yuin/gopher-lua v1.1.2
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/tools v0.52.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
