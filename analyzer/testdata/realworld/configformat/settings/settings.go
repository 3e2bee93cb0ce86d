// Package settings is the configuration of package readyqueue: the name
// format of a topic's ready queue, the constant default or what a file
// says, read through a stand-in for an ini library's Key(name).MustString
// (after ouqiang/delay-queue's config package).
package settings

import "os"

// Setting is the configuration Init loads.
var Setting *Config

const (
	DefaultQueueName       = "dq_queue_%s"
	DefaultTaggedQueueName = "{dq}:queue:%s"
)

// Config holds QueueName, the name format of a topic's ready queue.
type Config struct {
	QueueName       string // want QueueName:`keyField\("dq_queue_%s", "<os.Getenv\(e.name\)>"\)`
	TaggedQueueName string // want TaggedQueueName:`keyField\("\{dq\}:queue:%s", "<os.Getenv\(e.name\)>"\)`
}

// Init loads the configuration from path, or takes the defaults.
func Init(path string) {
	Setting = &Config{}
	if path == "" {
		Setting.QueueName = DefaultQueueName
		Setting.TaggedQueueName = DefaultTaggedQueueName
		return
	}
	Setting.QueueName = key("queue_name").MustString(DefaultQueueName)
	Setting.TaggedQueueName = key("tagged_queue_name").MustString(DefaultTaggedQueueName)
}

type entry struct{ name string }

func key(name string) entry { return entry{name} }

// MustString returns the entry's value, or def when the file has none.
func (e entry) MustString(def string) string { // want MustString:`keyFunc\("<os.Getenv\(e.name\)>", "<def>"\)`
	if v := os.Getenv(e.name); v != "" {
		return v
	}
	return def
}
