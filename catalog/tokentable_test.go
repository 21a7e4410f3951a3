package catalog

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/internal/fixtures"
)

var tokenTable = flag.String("tokentable", "", "write the flat-versus-catalog token table (markdown) to this file")

// flatCost is one row of testdata/pools/flat-cost.tsv.
type flatCost struct {
	file, kind string
	tools      int
	estTokens  int
}

func readFlatCost(t *testing.T) []flatCost {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtures.Dir(), "flat-cost.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []flatCost
	sc := bufio.NewScanner(f)
	var col map[string]int
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if col == nil {
			col = map[string]int{}
			for i, name := range fields {
				col[name] = i
			}
			continue
		}
		tools, err1 := strconv.Atoi(fields[col["tools"]])
		est, err2 := strconv.Atoi(fields[col["est_tokens"]])
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %q", sc.Text())
		}
		rows = append(rows, flatCost{
			file:      strings.TrimSuffix(fields[col["file"]], ".json"),
			kind:      fields[col["kind"]],
			tools:     tools,
			estTokens: est,
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestFlatCostTable compares, for every fixture pool, the estimated tokens
// of declaring its tools flatly with those of its catalog message at the
// default budget. With -tokentable=FILE it writes the table as markdown.
func TestFlatCostTable(t *testing.T) {
	rows := readFlatCost(t)
	if len(rows) != len(loadPools(t)) {
		t.Fatalf("%d cost rows for %d fixtures", len(rows), len(loadPools(t)))
	}
	var b strings.Builder
	b.WriteString("| pool | kind | tools | flat tokens | catalog tokens | shown | catalog / flat |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|\n")
	var flatSum, catSum int
	for _, row := range rows {
		p := loadPool(t, row.file)
		if len(p.Tools) != row.tools {
			t.Fatalf("%s: %d tools, the cost table says %d", row.file, len(p.Tools), row.tools)
		}
		c := Render(fixtureTools(p), Options{})
		tokens := estimateTokens(c.Body)
		flatSum += row.estTokens
		catSum += tokens
		shown := strconv.Itoa(c.Shown)
		if c.Truncated {
			shown += " (partial)"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %s | %.2f |\n",
			row.file, row.kind, row.tools, row.estTokens, tokens, shown, float64(tokens)/float64(row.estTokens))
		// The point of folding: once a pool costs more than the budget to
		// declare flatly, its catalog costs less.
		if row.estTokens > 2*DefaultBudget && tokens >= row.estTokens {
			t.Errorf("%s: catalog %d tokens is not below flat %d", row.file, tokens, row.estTokens)
		}
	}
	fmt.Fprintf(&b, "| **sum of the %d pools, each alone** | | | %d | %d | | %.2f |\n", len(rows), flatSum, catSum, float64(catSum)/float64(flatSum))
	all := allTools(t)
	c := Render(all, Options{})
	tokens := estimateTokens(c.Body)
	fmt.Fprintf(&b, "| **all %d pools as one pool** | | %d | %d | %d | %d (partial) | %.3f |\n",
		len(rows), len(all), flatSum, tokens, c.Shown, float64(tokens)/float64(flatSum))
	if *tokenTable != "" {
		if err := os.WriteFile(*tokenTable, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
