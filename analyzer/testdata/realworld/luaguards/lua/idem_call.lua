return publish_idempotent(KEYS[1], ARGV[1], ARGV[2])
