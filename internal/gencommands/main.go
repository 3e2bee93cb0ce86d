// Command gencommands writes the commands section of slotlint's rules.yaml
// from a live Redis server's COMMAND INFO: every command and subcommand with
// its flags, whether cluster clients split it by slot, and its key specs.
//
// It rewrites only the lines from "# BEGIN GENERATED commands" to
// "# END GENERATED commands" and leaves the rest of the file as it is; a
// missing file is created with "version: 1" and the markers. The output
// depends only on the server and on the commands the file records from
// other sources (or the -specs folder): the same server gives the same
// bytes.
//
// Usage, from the module root (go generate runs it so):
//
//	go run ./internal/gencommands [-addr host:port] [-password pw] [-o rules.yaml] [-specs dir]
//	go run ./internal/gencommands [-o rules.yaml] -manifests dir
//
// Without -addr it starts a redis-server from PATH on a Unix socket in a
// temporary directory, and stops it when done.
//
// The commands the server does not have (those newer than it, and module
// commands: RedisJSON, RedisTimeSeries, the probabilistic types, vector
// sets) come from files of Redis's and the modules' public source, which
// slotlint does not ship: rules.yaml records, on each such command's line,
// the version that added it and the repository, path and commit of the file
// its facts come from. Without -specs, gencommands writes these commands
// again as the rules file records them (those the server has aside). With
// -specs dir, it reads them from copies of those files under dir instead;
// see README.md here. The server's own commands take precedence. With
// -manifests dir, it writes the MANIFEST.tsv files of such a folder from
// the rules file's records, and needs no server.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

func main() {
	addr := flag.String("addr", "", "address of a running Redis server (host:port); by default a redis-server is started")
	password := flag.String("password", "", "password of the server's default user")
	out := flag.String("o", "rules.yaml", "the rules file to update")
	specs := flag.String("specs", "", "a directory of command JSON files for the commands the server does not have (see internal/gencommands/README.md); by default they are kept as the rules file records them")
	manifests := flag.String("manifests", "", "write, under this directory, the MANIFEST.tsv of each source that the rules file records, to start a -specs directory from, and exit")
	flag.Parse()
	if *manifests != "" {
		if err := writeManifests(*out, *manifests); err != nil {
			fmt.Fprintln(os.Stderr, "gencommands:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*addr, *password, *out, *specs); err != nil {
		fmt.Fprintln(os.Stderr, "gencommands:", err)
		os.Exit(1)
	}
}

func run(addr, password, out, specs string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	network := "tcp"
	if addr == "" {
		dir, err := os.MkdirTemp("", "slotlint-gencommands-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		stop, err := startServer(ctx, dir)
		if err != nil {
			return err
		}
		defer stop()
		network, addr = "unix", filepath.Join(dir, "redis.sock")
	}
	rdb := redis.NewClient(clientOptions(network, addr, password))
	defer rdb.Close()
	version, cmds, err := fetch(ctx, rdb)
	if err != nil {
		return err
	}
	var sources []specSource
	if specs != "" {
		sources, err = loadSpecs(specs, cmds)
	} else {
		sources, err = readRecords(out, cmds)
	}
	if err != nil {
		return err
	}
	return update(out, formatSection(version, cmds, sources))
}

func clientOptions(network, addr, password string) *redis.Options {
	return &redis.Options{
		Network:                  network,
		Addr:                     addr,
		Password:                 password,
		Protocol:                 2, // replies as flat arrays, the shape parseCommands reads
		MaxRetries:               -1,
		DialTimeout:              2 * time.Second,
		ReadTimeout:              10 * time.Second,
		DisableIdentity:          true,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}

// fetch returns the server's version and its commands.
func fetch(ctx context.Context, rdb *redis.Client) (string, []command, error) {
	info, err := rdb.Info(ctx, "server").Result()
	if err != nil {
		return "", nil, fmt.Errorf("INFO server: %v", err)
	}
	var version string
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "redis_version:"); ok {
			version = v
		}
	}
	if version == "" {
		return "", nil, errors.New("INFO server has no redis_version")
	}
	reply, err := rdb.Do(ctx, "COMMAND", "INFO").Slice()
	if err != nil {
		return "", nil, fmt.Errorf("COMMAND INFO: %v", err)
	}
	cmds, err := parseCommands(reply)
	if err != nil {
		return "", nil, fmt.Errorf("COMMAND INFO: %v", err)
	}
	if len(cmds) == 0 {
		return "", nil, errors.New("COMMAND INFO returned no commands")
	}
	return version, cmds, nil
}

// update writes section into the rules file at path, creating the file if
// it does not exist.
func update(path, section string) error {
	file, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		file = []byte("version: 1\n\n" + beginMarker + "\n" + endMarker + "\n")
	} else if err != nil {
		return err
	}
	updated, err := replaceSection(file, section)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if string(updated) == string(file) {
		return nil
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, updated, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// startServer starts redis-server on a Unix socket in dir and waits until it
// answers PING. stop ends it.
func startServer(ctx context.Context, dir string) (stop func(), err error) {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New("redis-server not found on PATH; install it (apt-get install redis-server) or pass -addr")
	}
	sock := filepath.Join(dir, "redis.sock")
	logf := filepath.Join(dir, "redis.log")
	cmd := exec.Command(path, "--port", "0", "--unixsocket", sock, "--dir", dir, "--logfile", logf,
		"--save", "", "--appendonly", "no", "--daemonize", "no")
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start redis-server: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	stop = func() {
		cmd.Process.Kill()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}
	rdb := redis.NewClient(clientOptions("unix", sock, ""))
	defer rdb.Close()
	deadline := time.Now().Add(15 * time.Second)
	for {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		err := rdb.Ping(pctx).Err()
		cancel()
		if err == nil {
			return stop, nil
		}
		select {
		case <-done:
			log, _ := os.ReadFile(logf)
			return nil, fmt.Errorf("redis-server exited during startup; its log:\n%s", log)
		case <-time.After(25 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			log, _ := os.ReadFile(logf)
			return nil, fmt.Errorf("redis-server did not answer PING within 15s (%v); its log:\n%s", err, log)
		}
	}
}
