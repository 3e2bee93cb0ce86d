return publish_idempotent("cf.result.last", ARGV[1], ARGV[2])
