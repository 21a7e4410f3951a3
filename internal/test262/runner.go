package test262

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Timeout bounds one file in one mode: past it the file fails and the run
// goes on.
const Timeout = 30 * time.Second

// Options configure a run of the suite.
type Options struct {
	// Dir is the test262 checkout: its harness/ and test/ directories.
	Dir string
	// Filter, when set, selects the files whose slash path relative to Dir
	// it matches.
	Filter *regexp.Regexp
	// Engine runs the scripts.
	Engine Engine
	// Parallel is how many files run at once; default GOMAXPROCS.
	Parallel int
	// Failures, when set, receives one line per failed file and mode.
	Failures io.Writer
}

// Counts are the files of one directory, or of the whole run.
type Counts struct{ Passed, Failed, Skipped int }

// Report is the outcome of a run: the counts of each directory that holds
// test files directly, by slash path relative to the checkout.
type Report struct {
	Dirs map[string]*Counts
}

// Total adds every directory's counts up.
func (r Report) Total() Counts {
	var t Counts
	for _, c := range r.Dirs {
		t.Passed += c.Passed
		t.Failed += c.Failed
		t.Skipped += c.Skipped
	}
	return t
}

// Write prints a line per directory, in path order, then the totals.
func (r Report) Write(w io.Writer) error {
	dirs := make([]string, 0, len(r.Dirs))
	for d := range r.Dirs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		c := r.Dirs[d]
		if _, err := fmt.Fprintf(w, "%s: %d passed, %d failed, %d skipped\n", d, c.Passed, c.Failed, c.Skipped); err != nil {
			return err
		}
	}
	t := r.Total()
	_, err := fmt.Fprintf(w, "%d passed, %d failed\n", t.Passed, t.Failed)
	return err
}

// Run runs the selected test files of the checkout.
func Run(ctx context.Context, opts Options) (Report, error) {
	files, err := testFiles(opts.Dir, opts.Filter)
	if err != nil {
		return Report{}, err
	}
	h := &harness{dir: opts.Dir, files: make(map[string]string)}
	parallel := opts.Parallel
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	report := Report{Dirs: make(map[string]*Counts)}
	var mu sync.Mutex
	jobs := make(chan string)
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for file := range jobs {
				v := runFile(ctx, opts.Engine, h, opts.Dir, file)
				mu.Lock()
				c := report.Dirs[path.Dir(file)]
				if c == nil {
					c = &Counts{}
					report.Dirs[path.Dir(file)] = c
				}
				switch {
				case v.skipped:
					c.Skipped++
				case v.failure != "":
					c.Failed++
					if opts.Failures != nil {
						fmt.Fprintf(opts.Failures, "FAIL %s: %s\n", file, v.failure)
					}
				default:
					c.Passed++
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		if ctx.Err() != nil {
			break
		}
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	return report, ctx.Err()
}

// testFiles lists the test files under Dir/test that filter selects, as
// slash paths relative to Dir. Fixtures (files named *_FIXTURE.js, which
// module tests import) are not tests.
func testFiles(dir string, filter *regexp.Regexp) ([]string, error) {
	root := filepath.Join(dir, "test")
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a test262 checkout: it has no test directory", dir)
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".js") || strings.HasSuffix(p, "_FIXTURE.js") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if filter == nil || filter.MatchString(rel) {
			files = append(files, rel)
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

// verdict is how one file went: skipped, failed (why, in one mode), or
// passed in every mode.
type verdict struct {
	skipped bool
	failure string
}

// runFile runs one file in each of its modes.
func runFile(ctx context.Context, engine Engine, h *harness, dir, file string) verdict {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
	if err != nil {
		return verdict{failure: err.Error()}
	}
	src := string(data)
	m, err := parseMeta(src)
	if err != nil {
		return verdict{failure: err.Error()}
	}
	if skipped(m) {
		return verdict{skipped: true}
	}
	prelude, err := h.prelude(m)
	if err != nil {
		return verdict{failure: err.Error()}
	}
	for _, strict := range modes(m) {
		script := prelude + src
		if strict {
			script = "\"use strict\";\n" + script
		}
		runCtx, cancel := context.WithTimeout(ctx, Timeout+5*time.Second)
		out := engine.Run(runCtx, script)
		cancel()
		if why := judge(m, out); why != "" {
			mode := "sloppy"
			if strict {
				mode = "strict"
			}
			return verdict{failure: mode + ": " + why}
		}
	}
	return verdict{}
}

// modes are the modes a file runs in: strict and sloppy unless its flags
// say one (raw files run once, as written).
func modes(m meta) []bool {
	switch {
	case m.has("raw"), m.has("noStrict"):
		return []bool{false}
	case m.has("onlyStrict"):
		return []bool{true}
	}
	return []bool{false, true}
}

// judge returns why the outcome fails the file's expectations, or "".
func judge(m meta, out Outcome) string {
	if n := m.negative; n != nil {
		switch {
		case out.Phase == "":
			return fmt.Sprintf("expected a %s %s, but the script completed", n.phase, n.errorType)
		case out.Phase != n.phase || out.Type != n.errorType:
			return fmt.Sprintf("expected a %s %s, got a %s %s: %s", n.phase, n.errorType, out.Phase, out.Type, out.Message)
		}
		return ""
	}
	if out.Phase != "" {
		return fmt.Sprintf("%s %s: %s", out.Phase, out.Type, out.Message)
	}
	if m.has("async") {
		for _, line := range strings.Split(out.Printed, "\n") {
			switch {
			case line == "Test262:AsyncTestComplete":
				return ""
			case strings.HasPrefix(line, "Test262:AsyncTestFailure:"):
				return strings.TrimPrefix(line, "Test262:AsyncTestFailure:")
			}
		}
		return "the async test never called $DONE"
	}
	return ""
}

// harness reads and keeps the harness files.
type harness struct {
	dir   string
	mu    sync.Mutex
	files map[string]string
}

// prelude is what runs before a test: assert.js and sta.js,
// doneprintHandle.js for an async test, then the test's includes in order;
// nothing for a raw test.
func (h *harness) prelude(m meta) (string, error) {
	if m.has("raw") {
		return "", nil
	}
	names := []string{"assert.js", "sta.js"}
	if m.has("async") {
		names = append(names, "doneprintHandle.js")
	}
	names = append(names, m.includes...)
	var b strings.Builder
	for _, name := range names {
		src, err := h.file(name)
		if err != nil {
			return "", err
		}
		b.WriteString(src)
		b.WriteString("\n")
	}
	return b.String(), nil
}

func (h *harness) file(name string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if src, ok := h.files[name]; ok {
		return src, nil
	}
	data, err := os.ReadFile(filepath.Join(h.dir, "harness", name))
	if err != nil {
		return "", fmt.Errorf("harness file %s: %w", name, err)
	}
	h.files[name] = string(data)
	return string(data), nil
}
