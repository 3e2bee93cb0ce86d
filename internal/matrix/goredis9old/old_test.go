package matrix

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestRows runs the go-redis v9 rows (row.go and goredis9.go, copies of
// the matrix module's, which its tests keep equal) with the go-redis v9
// release this module requires, on the cluster whose addresses are in
// MATRIX_ADDRS, and writes what each row saw to MATRIX_OUT. The matrix
// module's tests run it and classify the rows; alone, it skips.
//
// go.mod requires go-redis v9's first release, v9.0.0; each go.v9.N.mod
// (go test -modfile=go.v9.N.mod, with MATRIX_GOMOD=go.v9.N.mod) the release
// v9.N.0.
func TestRows(t *testing.T) {
	addrs, out := os.Getenv("MATRIX_ADDRS"), os.Getenv("MATRIX_OUT")
	if addrs == "" || out == "" {
		t.Skip("run by the tests of internal/matrix, which give MATRIX_ADDRS and MATRIX_OUT")
	}
	modfile := os.Getenv("MATRIX_GOMOD")
	if modfile == "" {
		modfile = "go.mod"
	}
	gomod, err := os.ReadFile(modfile)
	if err != nil {
		t.Fatal(err)
	}
	version, err := ModuleVersion(gomod, GoRedis9.Module)
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Addrs: strings.Split(addrs, ",")}
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: env.Addrs})
	defer rdb.Close()
	var recs []Record
	for _, r := range GoRedis9.Rows {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		reset(ctx, t, rdb)
		res := r.Run(ctx, env)
		rec := Record{Shape: r.Shape, Version: version, Got: res.Got, Func: runtime.FuncForPC(reflect.ValueOf(r.Run).Pointer()).Name()}
		rec.Func = rec.Func[strings.LastIndex(rec.Func, ".")+1:]
		if res.Err != nil {
			rec.Err = res.Err.Error()
		}
		n, err := rdb.Exists(ctx, "db:probe").Result()
		if err != nil {
			t.Fatal(err)
		}
		rec.DBProbe = n == 1
		recs = append(recs, rec)
		cancel()
	}
	data, err := json.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// reset writes the keys every row starts from, as the matrix module's
// tests do.
func reset(ctx context.Context, t *testing.T, rdb *redis.ClusterClient) {
	err := rdb.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
		return c.FlushAll(ctx).Err()
	})
	for _, p := range [][2]string{PriceOne, PriceCross} {
		for i, k := range p {
			if err == nil {
				err = rdb.Set(ctx, k, strconv.Itoa(i+1), 0).Err()
			}
		}
	}
	for i := range ScanKeys {
		if err == nil {
			err = rdb.Set(ctx, "scan:"+strconv.Itoa(i), "x", 0).Err()
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}
