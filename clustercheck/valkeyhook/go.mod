module github.com/slotlint/slotlint/clustercheck/valkeyhook

go 1.26.0

require (
	github.com/slotlint/slotlint v0.0.0
	github.com/valkey-io/valkey-go v1.0.79
	github.com/valkey-io/valkey-go/valkeycompat v1.0.67
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/redis/go-redis/v9 v9.23.0 // indirect
	github.com/yuin/gopher-lua v1.1.2 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace github.com/slotlint/slotlint => ../..
