package traffic

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// benchCapture returns the capture of $SLOTLINT_TRAFFIC_CAPTURE, which
// scripts/bench-traffic.sh records from a real redis-server under
// redis-benchmark load, or else a generated one.
func benchCapture(b *testing.B) []byte {
	if p := os.Getenv("SLOTLINT_TRAFFIC_CAPTURE"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	var s strings.Builder
	s.WriteString("OK\n")
	for i := range 200_000 {
		fmt.Fprintf(&s, "1796153228.%06d [0 127.0.0.1:%d] \"SET\" \"key:%012d\" \"xxx\"\n", i%1_000_000, 40000+i%50, i)
	}
	return []byte(s.String())
}

// BenchmarkCapture reads and analyses a capture, and reports how many
// times faster than the server wrote it (its last timestamp less its
// first): x-emit-time.
func BenchmarkCapture(b *testing.B) {
	data := benchCapture(b)
	var rep *Report
	var lines int
	for b.Loop() {
		rep, lines = readAll(b, data, true)
	}
	perOp := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(lines)/perOp, "lines/s")
	if emit := float64(rep.Last-rep.First) / 1e6; emit > 0 {
		b.ReportMetric(emit/perOp, "x-emit-time")
	}
	b.SetBytes(int64(len(data)))
}

// BenchmarkCaptureParse reads the same capture without analysing it: the
// parser's share.
func BenchmarkCaptureParse(b *testing.B) {
	data := benchCapture(b)
	var lines int
	for b.Loop() {
		_, lines = readAll(b, data, false)
	}
	b.ReportMetric(float64(lines)/(b.Elapsed().Seconds()/float64(b.N)), "lines/s")
	b.SetBytes(int64(len(data)))
}

func readAll(b *testing.B, data []byte, analyse bool) (*Report, int) {
	a := New(Options{})
	n := 0
	eachLine(b, data, func(l *Line, ln int) {
		n++
		if analyse {
			a.Feed(l, ln)
		}
	}, func(*BadLine) {})
	return a.Report(), n
}
