package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkWorkerColdStart measures starting a worker process until it is
// ready to serve, and stopping it.
func BenchmarkWorkerColdStart(b *testing.B) {
	opts, err := WorkerOptions{}.withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		w, err := startWorker(opts)
		if err != nil {
			b.Fatal(err)
		}
		w.stop()
	}
}

// BenchmarkWorkerTrivialScript is one trivial run on a warm worker process:
// the protocol round trip plus the run itself.
func BenchmarkWorkerTrivialScript(b *testing.B) {
	p, err := NewWorkers(WorkerOptions{Warm: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	req := Request{Code: trivialScript, Host: instantHost{}, Tools: poolOf(100)}
	for b.Loop() {
		if res := p.Run(context.Background(), req); !res.OK {
			b.Fatal(res.Text)
		}
	}
}

// BenchmarkWorkerNestedCall is the cost of one nested call crossing the
// process boundary both ways.
func BenchmarkWorkerNestedCall(b *testing.B) {
	p, err := NewWorkers(WorkerOptions{Warm: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	req := Request{Code: nestedScript, Host: instantHost{}, Tools: poolOf(100), Limits: Limits{MaxCalls: nestedCalls}}
	for b.Loop() {
		if res := p.Run(context.Background(), req); !res.OK {
			b.Fatal(res.Text)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nestedCalls), "ns/call")
}

// gatedHost holds every call until release is closed, so a benchmark can
// look at workers while their runs are in flight.
type gatedHost struct{ release chan struct{} }

func (h gatedHost) CallTool(ctx context.Context, _ string, _ json.RawMessage) (CallResult, error) {
	select {
	case <-h.release:
	case <-ctx.Done():
	}
	return CallResult{Value: json.RawMessage(`1`)}, nil
}

func (gatedHost) Search(context.Context, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`[]`), nil
}

// BenchmarkWorkerMemory reports the resident memory of an idle warm worker
// and of a worker in the middle of a typical run (a few hundred objects,
// awaiting a tool call): all of it (VmRSS), and its private part (RssAnon).
// Most of VmRSS is the binary's file pages, shared by every worker and the
// host through the page cache; RssAnon is what each extra worker costs.
func BenchmarkWorkerMemory(b *testing.B) {
	for b.Loop() {
		p, err := NewWorkers(WorkerOptions{Warm: 1})
		if err != nil {
			b.Fatal(err)
		}
		idle, idleAnon := averageRSS(b, "VmRSS:"), averageRSS(b, "RssAnon:")
		h := gatedHost{release: make(chan struct{})}
		done := make(chan Result)
		go func() {
			done <- p.Run(context.Background(), Request{Host: h, Tools: NewToolSet([]string{"mcp__s__t"}), Code: `
				const rows = Array.from({ length: 500 }, (_, i) => ({ id: i, name: "row " + i, tags: ["a", "b"] }));
				console.log(rows.length);
				return await tools.mcp__s__t({ rows });`})
		}()
		running, runningAnon := waitForRunningRSS(b, idleAnon)
		close(h.release)
		if res := <-done; !res.OK {
			b.Fatal(res.Text)
		}
		p.Close()
		b.ReportMetric(idle/1024, "idle-MB")
		b.ReportMetric(idleAnon/1024, "idle-private-MB")
		b.ReportMetric(running/1024, "running-MB")
		b.ReportMetric(runningAnon/1024, "running-private-MB")
	}
}

// averageRSS is the mean of a /proc status field (VmRSS:, RssAnon:), in
// KiB, over this process's children.
func averageRSS(b *testing.B, field string) float64 {
	total, n := 0.0, 0
	for _, pid := range childPIDs(b) {
		if kb := statusKiB(pid, field); kb > 0 {
			total += kb
			n++
		}
	}
	if n == 0 {
		b.Fatal("no worker process found")
	}
	return total / float64(n)
}

// waitForRunningRSS samples until the worker's private memory has grown
// past its idle size (its run has allocated), or gives the last sample.
func waitForRunningRSS(b *testing.B, idleAnon float64) (rss, anon float64) {
	for range 200 {
		rss, anon = averageRSS(b, "VmRSS:"), averageRSS(b, "RssAnon:")
		if anon > idleAnon*1.05 {
			break
		}
		waitBriefly()
	}
	return rss, anon
}

func childPIDs(b *testing.B) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		b.Fatal(err)
	}
	self := strconv.Itoa(os.Getpid())
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
		if len(fields) > 1 && fields[1] == self && fields[0] != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

func statusKiB(pid int, field string) float64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, _ := strconv.ParseFloat(strings.Fields(rest)[0], 64)
			return kb
		}
	}
	return 0
}

func waitBriefly() { <-time.After(5 * time.Millisecond) }
