module slotlint.test

go 1.26.0

require (
	github.com/garyburd/redigo v1.6.0
	github.com/go-redis/redis v6.15.9+incompatible
	github.com/go-redis/redis/v7 v7.4.1
	github.com/go-redis/redis/v8 v8.11.5
	github.com/go-redis/redis/v9 v9.0.0-rc.1
	github.com/gobuffalo/packr/v2 v2.8.3
	github.com/gomodule/redigo v1.9.3
	github.com/mediocregopher/radix.v2 v0.0.0-20181115013041-b67df6e626f9
	github.com/mediocregopher/radix/v3 v3.8.0
	github.com/mediocregopher/radix/v4 v4.1.4
	github.com/redis/go-redis/v9 v9.23.0
	github.com/redis/rueidis v1.0.79
	github.com/redis/rueidis/rueidiscompat v1.0.79
	github.com/slotlint/slotlint v0.0.0
	github.com/valkey-io/valkey-go v1.0.79
	github.com/valkey-io/valkey-go/valkeycompat v1.0.67
	github.com/valyala/bytebufferpool v1.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f // indirect
	github.com/gobuffalo/logger v1.0.6 // indirect
	github.com/gobuffalo/packd v1.0.1 // indirect
	github.com/karrick/godirwalk v1.16.1 // indirect
	github.com/markbates/errx v1.1.0 // indirect
	github.com/markbates/oncer v1.0.0 // indirect
	github.com/markbates/safe v1.0.1 // indirect
	github.com/sirupsen/logrus v1.8.1 // indirect
	github.com/tilinna/clock v1.0.2 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.0.0-20210927222741-03fcf44c2211 // indirect
	golang.org/x/xerrors v0.0.0-20200804184101-5ec99f83aff1 // indirect
)

replace github.com/slotlint/slotlint => ../..
