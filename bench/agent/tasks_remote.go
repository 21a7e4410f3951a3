package agent

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Tasks that reach server-everything over streamable HTTP: its get-sum
// stands for a calculator or pricing API, get-structured-content for a
// weather API, get-env for a service's configuration endpoint.

var invoiceAmounts = []int{1250, 980, 4310, 275, 1999, 760, 3120, 445, 2080, 1515}

func invoicesCSV() string {
	var b strings.Builder
	b.WriteString("invoice,customer,amount\n")
	for i, amount := range invoiceAmounts {
		fmt.Fprintf(&b, "INV-%04d,customer-%02d,%d\n", 1041+i, i+1, amount)
	}
	return b.String()
}

func invoicesTotal() int {
	total := 0
	for _, a := range invoiceAmounts {
		total += a
	}
	return total
}

var sumPattern = regexp.MustCompile(`is (-?[0-9.]+)\.`)

// sumOf reads get-sum's answer ("The sum of 1 and 2 is 3.").
func sumOf(text string) (int, error) {
	m := sumPattern.FindStringSubmatch(text)
	if m == nil {
		return 0, fmt.Errorf("get-sum said %q", text)
	}
	return strconv.Atoi(m[1])
}

var sumInvoicesTask = Task{
	Name:    "sum-invoices",
	Prompt:  "Total the amounts in invoices.csv with the calculator tool (get-sum) and write `total: N` to invoices-total.txt.",
	Servers: []Server{Filesystem, Everything},
	Seed: func(ws *Workspace) error {
		return ws.WriteFile("invoices.csv", invoicesCSV())
	},
	Flat: func(a *Agent) (string, error) {
		csv, err := a.Call("mcp__fs__read_text_file", Args{"path": "invoices.csv"})
		if err != nil {
			return "", err
		}
		var amounts []int
		for _, line := range strings.Split(strings.TrimSpace(csv), "\n")[1:] {
			f := strings.Split(line, ",")
			n, err := strconv.Atoi(f[2])
			if err != nil {
				return "", err
			}
			amounts = append(amounts, n)
		}
		total := amounts[0]
		for _, n := range amounts[1:] {
			text, err := a.Call("mcp__everything__get-sum", Args{"a": total, "b": n})
			if err != nil {
				return "", err
			}
			if total, err = sumOf(text); err != nil {
				return "", err
			}
		}
		if _, err := a.Call("mcp__fs__write_file", Args{"path": "invoices-total.txt", "content": fmt.Sprintf("total: %d\n", total)}); err != nil {
			return "", err
		}
		return fmt.Sprintf("Total %d, written to invoices-total.txt.", total), nil
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`const rows = (await tools.mcp__fs__read_text_file({path: "invoices.csv"})).content.trim().split("\n").slice(1);
let total = Number(rows[0].split(",")[2]);
for (const row of rows.slice(1)) {
  const said = await tools["mcp__everything__get-sum"]({a: total, b: Number(row.split(",")[2])});
  total = Number(/is (-?[0-9.]+)\./.exec(said)[1]);
}
await tools.mcp__fs__write_file({path: "invoices-total.txt", content: "total: " + total + "\n"});
return "Total " + total + ", written to invoices-total.txt.";`)
	},
	Check: func(_ context.Context, ws *Workspace, _ string) error {
		return wantFile(ws, "invoices-total.txt", fmt.Sprintf("total: %d\n", invoicesTotal()))
	},
}

// What server-everything's weather tool says of each city.
var cityWeather = map[string][2]string{
	"New York":    {"33", "Cloudy"},
	"Chicago":     {"36", "Light rain / drizzle"},
	"Los Angeles": {"73", "Sunny / Clear"},
}

var cities = []string{"Chicago", "Los Angeles", "New York"}

var weatherNotesTask = Task{
	Name:    "weather-notes",
	Prompt:  "Note today's weather for Chicago, Los Angeles and New York in memory: an entity of type city for each, with the observations `temperature: T` and `conditions: C`.",
	Servers: []Server{Everything, Memory},
	Flat: func(a *Agent) (string, error) {
		var entities []map[string]any
		for _, city := range cities {
			var w struct {
				Temperature float64 `json:"temperature"`
				Conditions  string  `json:"conditions"`
			}
			if err := a.JSON("mcp__everything__get-structured-content", Args{"location": city}, &w); err != nil {
				return "", err
			}
			entities = append(entities, map[string]any{"name": city, "entityType": "city", "observations": []string{
				fmt.Sprintf("temperature: %g", w.Temperature), "conditions: " + w.Conditions}})
		}
		if _, err := a.Call("mcp__memory__create_entities", Args{"entities": entities}); err != nil {
			return "", err
		}
		return "Noted the weather of 3 cities.", nil
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`const cities = ["Chicago", "Los Angeles", "New York"];
const weather = await Promise.all(cities.map(location => tools["mcp__everything__get-structured-content"]({location})));
await tools.mcp__memory__create_entities({entities: cities.map((name, i) => ({name, entityType: "city",
  observations: ["temperature: " + weather[i].temperature, "conditions: " + weather[i].conditions]}))});
return "Noted the weather of " + cities.length + " cities.";`)
	},
	Check: func(ctx context.Context, ws *Workspace, _ string) error {
		g, err := ws.Graph(ctx)
		if err != nil {
			return err
		}
		for _, city := range cities {
			e, ok := g.Entity(city)
			want := []string{"temperature: " + cityWeather[city][0], "conditions: " + cityWeather[city][1]}
			if !ok || e.EntityType != "city" || strings.Join(e.Observations, "|") != strings.Join(want, "|") {
				return fmt.Errorf("city %q is %+v, want observations %q", city, e, want)
			}
		}
		return nil
	},
}

// dbSettings is what env-audit must write: the APP_DB_ variables, sorted.
func dbSettings() string {
	var lines []string
	for _, kv := range remoteEnv {
		if strings.HasPrefix(kv, "APP_DB_") {
			lines = append(lines, kv)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

var envAuditTask = Task{
	Name:    "env-audit",
	Prompt:  "Copy the orders service's database settings (its APP_DB_* environment variables, from the everything server's get-env) into db.env, one KEY=value a line, sorted.",
	Servers: []Server{Everything, Filesystem},
	Flat: func(a *Agent) (string, error) {
		var env map[string]string
		if err := a.JSON("mcp__everything__get-env", Args{}, &env); err != nil {
			return "", err
		}
		var lines []string
		for k, v := range env {
			if strings.HasPrefix(k, "APP_DB_") {
				lines = append(lines, k+"="+v)
			}
		}
		sort.Strings(lines)
		if _, err := a.Call("mcp__fs__write_file", Args{"path": "db.env", "content": strings.Join(lines, "\n") + "\n"}); err != nil {
			return "", err
		}
		return fmt.Sprintf("Wrote %d settings to db.env.", len(lines)), nil
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`const env = JSON.parse(await tools["mcp__everything__get-env"]({}));
const lines = Object.keys(env).filter(k => k.startsWith("APP_DB_")).sort().map(k => k + "=" + env[k]);
await tools.mcp__fs__write_file({path: "db.env", content: lines.join("\n") + "\n"});
return "Wrote " + lines.length + " settings to db.env.";`)
	},
	Check: func(_ context.Context, ws *Workspace, _ string) error {
		return wantFile(ws, "db.env", dbSettings())
	},
}

var quickSumTask = Task{
	Name:    "quick-sum",
	Prompt:  "What is 1234 + 5678? Use the calculator tool.",
	Servers: []Server{Everything},
	Flat: func(a *Agent) (string, error) {
		text, err := a.Call("mcp__everything__get-sum", Args{"a": 1234, "b": 5678})
		if err != nil {
			return "", err
		}
		n, err := sumOf(text)
		return strconv.Itoa(n), err
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`return await tools["mcp__everything__get-sum"]({a: 1234, b: 5678});`)
	},
	Check: func(_ context.Context, _ *Workspace, answer string) error {
		return wantAnswer(answer, "6912")
	},
}
