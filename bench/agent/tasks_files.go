package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Tasks over the filesystem server alone.

var noteTitles = []string{
	"Checkout latency review", "Q4 hiring plan", "Incident 4471 postmortem", "Search relevance sync",
	"Mobile release checklist", "Data retention policy", "Pricing experiment results", "On-call handover",
	"Vendor security review", "API deprecation timeline", "Design system audit", "Customer advisory board",
}

func noteFile(i int) string { return fmt.Sprintf("2026-11-%02d.md", i+3) }

func noteText(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\nAttendees: Ana, Bruno, Chen, Dana\n\n", noteTitles[i])
	for j := 1; j <= 10; j++ {
		fmt.Fprintf(&b, "- Point %d on %s: agreed to follow up with the owners by Friday and report back.\n", j, strings.ToLower(noteTitles[i]))
	}
	return b.String()
}

func notesIndex() string {
	var b strings.Builder
	b.WriteString("# Index\n\n")
	for i := range noteTitles {
		fmt.Fprintf(&b, "- [%s](%s)\n", noteTitles[i], noteFile(i))
	}
	return b.String()
}

var notesIndexTask = Task{
	Name:    "notes-index",
	Prompt:  "Make notes/INDEX.md: a line `- [Title](file)` for each note in notes/, by file name, the title being the note's first heading, under a `# Index` heading.",
	Servers: []Server{Filesystem},
	Seed: func(ws *Workspace) error {
		for i := range noteTitles {
			if err := ws.WriteFile("notes/"+noteFile(i), noteText(i)); err != nil {
				return err
			}
		}
		return nil
	},
	Flat: func(a *Agent) (string, error) {
		listing, err := a.Call("mcp__fs__list_directory", Args{"path": "notes"})
		if err != nil {
			return "", err
		}
		var paths []string
		for _, f := range listedFiles(listing) {
			paths = append(paths, "notes/"+f)
		}
		read, err := a.Call("mcp__fs__read_multiple_files", Args{"paths": paths})
		if err != nil {
			return "", err
		}
		texts := filesRead(read)
		index := "# Index\n\n"
		for _, p := range paths {
			title, _, _ := strings.Cut(strings.TrimPrefix(texts[p], "# "), "\n")
			index += fmt.Sprintf("- [%s](%s)\n", title, strings.TrimPrefix(p, "notes/"))
		}
		if _, err := a.Call("mcp__fs__write_file", Args{"path": "notes/INDEX.md", "content": index}); err != nil {
			return "", err
		}
		return fmt.Sprintf("Wrote notes/INDEX.md with %d entries.", len(paths)), nil
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`const listing = (await tools.mcp__fs__list_directory({path: "notes"})).content;
const files = listing.split("\n").filter(l => l.startsWith("[FILE] ")).map(l => l.slice(7)).sort();
const lines = [];
for (const f of files) {
  const head = (await tools.mcp__fs__read_text_file({path: "notes/" + f, head: 1})).content;
  lines.push("- [" + head.replace(/^# /, "").trim() + "](" + f + ")");
}
await tools.mcp__fs__write_file({path: "notes/INDEX.md", content: "# Index\n\n" + lines.join("\n") + "\n"});
return "Wrote notes/INDEX.md with " + files.length + " entries.";`)
	},
	Check: func(_ context.Context, ws *Workspace, _ string) error {
		return wantFile(ws, "notes/INDEX.md", notesIndex())
	},
}

// The source tree the TODO report is made of: each file's lines.
var sourceTree = map[string][]string{
	"src/main.go":          {"package main", "", "import \"example.com/shop/server\"", "", "func main() {", "\t// TODO: read the listen address from the environment", "\tserver.Run(\":8080\")", "}"},
	"src/server/http.go":   {"package server", "", "import \"net/http\"", "", "// Run serves the shop's API.", "func Run(addr string) error {", "\tmux := http.NewServeMux()", "\troutes(mux)", "\t// TODO: graceful shutdown on SIGTERM", "\treturn http.ListenAndServe(addr, mux)", "}"},
	"src/server/routes.go": {"package server", "", "import \"net/http\"", "", "func routes(mux *http.ServeMux) {", "\tmux.HandleFunc(\"/orders\", orders)", "\tmux.HandleFunc(\"/health\", health)", "}", "", "func health(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }"},
	"src/server/orders.go": {"package server", "", "import \"net/http\"", "", "func orders(w http.ResponseWriter, r *http.Request) {", "\t// TODO: paginate; the list grows without bound", "\t// TODO: check the caller's scope before listing", "\tw.Write([]byte(\"[]\"))", "}"},
	"src/store/db.go":      {"package store", "", "import \"database/sql\"", "", "// Open connects to the orders database.", "func Open(dsn string) (*sql.DB, error) {", "\tdb, err := sql.Open(\"postgres\", dsn)", "\tif err != nil {", "\t\treturn nil, err", "\t}", "\tdb.SetMaxOpenConns(16)", "\treturn db, nil", "}"},
	"src/store/cache.go":   {"package store", "", "import \"sync\"", "", "// Cache keeps recent orders in memory.", "type Cache struct {", "\tmu sync.Mutex", "\t// TODO: evict; entries are never dropped", "\tm map[string][]byte", "}"},
	"src/auth/token.go":    {"package auth", "", "import \"strings\"", "", "// Bearer is the token in an Authorization header.", "func Bearer(h string) string {", "\treturn strings.TrimPrefix(h, \"Bearer \")", "}"},
	"src/auth/session.go":  {"package auth", "", "import \"time\"", "", "// Session is a signed-in user.", "type Session struct {", "\tUser    string", "\tExpires time.Time", "}", "", "// TODO: rotate session keys daily"},
}

func todoReport() string {
	var paths []string
	for p := range sourceTree {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	b.WriteString("# TODO\n\n")
	for _, p := range paths {
		for i, line := range sourceTree[p] {
			if _, todo, ok := strings.Cut(line, "TODO: "); ok {
				fmt.Fprintf(&b, "- %s:%d %s\n", p, i+1, todo)
			}
		}
	}
	return b.String()
}

var todoReportTask = Task{
	Name:    "todo-report",
	Prompt:  "List every `TODO:` comment under src/ in TODO.md, under a `# TODO` heading, one line each: `- path:line text`, by path then line.",
	Servers: []Server{Filesystem},
	Seed: func(ws *Workspace) error {
		for p, lines := range sourceTree {
			if err := ws.WriteFile(p, strings.Join(lines, "\n")+"\n"); err != nil {
				return err
			}
		}
		return nil
	},
	Flat: func(a *Agent) (string, error) {
		tree, err := a.Call("mcp__fs__directory_tree", Args{"path": "src"})
		if err != nil {
			return "", err
		}
		paths, err := treeFiles("src", tree)
		if err != nil {
			return "", err
		}
		read, err := a.Call("mcp__fs__read_multiple_files", Args{"paths": paths})
		if err != nil {
			return "", err
		}
		texts := filesRead(read)
		report, n := "# TODO\n\n", 0
		for _, p := range paths {
			for i, line := range strings.Split(texts[p], "\n") {
				if _, todo, ok := strings.Cut(line, "TODO: "); ok {
					report += fmt.Sprintf("- %s:%d %s\n", p, i+1, todo)
					n++
				}
			}
		}
		if _, err := a.Call("mcp__fs__write_file", Args{"path": "TODO.md", "content": report}); err != nil {
			return "", err
		}
		return fmt.Sprintf("Wrote TODO.md: %d TODOs.", n), nil
	},
	// Two scripts: the first looks at the tree (the model does not know it
	// yet) and keeps the file list; the second reads the files and writes.
	Code: func(a *Agent) (string, error) {
		if _, err := a.Exec(`const files = [];
const walk = (dir, nodes) => { for (const n of nodes) n.type === "directory" ? walk(dir + "/" + n.name, n.children) : files.push(dir + "/" + n.name); };
walk("src", JSON.parse((await tools.mcp__fs__directory_tree({path: "src"})).content));
files.sort();
store("files", files);
return files;`); err != nil {
			return "", err
		}
		return a.Exec(`const files = load("files");
const lines = [];
for (const f of files) {
  const text = (await tools.mcp__fs__read_text_file({path: f})).content;
  text.split("\n").forEach((line, i) => {
    const at = line.indexOf("TODO: ");
    if (at >= 0) lines.push("- " + f + ":" + (i + 1) + " " + line.slice(at + 6));
  });
}
await tools.mcp__fs__write_file({path: "TODO.md", content: "# TODO\n\n" + lines.join("\n") + "\n"});
return "Wrote TODO.md: " + lines.length + " TODOs.";`)
	},
	Check: func(_ context.Context, ws *Workspace, _ string) error {
		return wantFile(ws, "TODO.md", todoReport())
	},
}

// The inbox: logs to archive, other files to leave.
var (
	inboxLogs   = []string{"api-2026-11-01.log", "api-2026-11-02.log", "api-2026-11-03.log", "worker-2026-11-01.log", "worker-2026-11-02.log", "worker-2026-11-03.log"}
	inboxOthers = []string{"budget.csv", "notes.txt", "roadmap.md", "team.csv"}
)

func inboxText(name string) string { return "contents of " + name + "\n" }

var archiveLogsTask = Task{
	Name:    "archive-logs",
	Prompt:  "Move every .log file in inbox/ into archive/2026-11/ (create it); leave the other files where they are.",
	Servers: []Server{Filesystem},
	Seed: func(ws *Workspace) error {
		for _, f := range append(append([]string{}, inboxLogs...), inboxOthers...) {
			if err := ws.WriteFile("inbox/"+f, inboxText(f)); err != nil {
				return err
			}
		}
		return nil
	},
	Flat: func(a *Agent) (string, error) {
		listing, err := a.Call("mcp__fs__list_directory", Args{"path": "inbox"})
		if err != nil {
			return "", err
		}
		if _, err := a.Call("mcp__fs__create_directory", Args{"path": "archive/2026-11"}); err != nil {
			return "", err
		}
		moved := 0
		for _, f := range listedFiles(listing) {
			if !strings.HasSuffix(f, ".log") {
				continue
			}
			if _, err := a.Call("mcp__fs__move_file", Args{"source": "inbox/" + f, "destination": "archive/2026-11/" + f}); err != nil {
				return "", err
			}
			moved++
		}
		return fmt.Sprintf("Moved %d logs to archive/2026-11/.", moved), nil
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`const listing = (await tools.mcp__fs__list_directory({path: "inbox"})).content;
const logs = listing.split("\n").filter(l => l.startsWith("[FILE] ") && l.endsWith(".log")).map(l => l.slice(7));
await tools.mcp__fs__create_directory({path: "archive/2026-11"});
for (const f of logs) await tools.mcp__fs__move_file({source: "inbox/" + f, destination: "archive/2026-11/" + f});
return "Moved " + logs.length + " logs to archive/2026-11/.";`)
	},
	Check: func(_ context.Context, ws *Workspace, _ string) error {
		for _, f := range inboxLogs {
			if err := wantFile(ws, "archive/2026-11/"+f, inboxText(f)); err != nil {
				return err
			}
			if _, err := ws.ReadFile("inbox/" + f); err == nil {
				return fmt.Errorf("inbox/%s is still there", f)
			}
		}
		for _, f := range inboxOthers {
			if err := wantFile(ws, "inbox/"+f, inboxText(f)); err != nil {
				return err
			}
		}
		return nil
	},
}

// The application's configuration, for a one-call question.
var appConfig = map[string]any{
	"service":  "orders-api",
	"server":   map[string]any{"host": "0.0.0.0", "port": 8443, "tls": map[string]any{"cert": "/etc/orders/tls.crt", "key": "/etc/orders/tls.key"}, "readTimeout": "15s", "writeTimeout": "30s"},
	"database": map[string]any{"host": "db.internal", "port": 5432, "name": "orders", "pool": map[string]any{"min": 4, "max": 16}},
	"cache":    map[string]any{"url": "redis://cache.internal:6379/0", "ttl": "5m"},
	"features": map[string]any{"checkoutV2": true, "fastRefunds": true, "giftCards": false},
	"logging":  map[string]any{"level": "info", "format": "json"},
}

var configPortTask = Task{
	Name:    "config-port",
	Prompt:  "Which port does config/app.json make the server listen on?",
	Servers: []Server{Filesystem},
	Seed: func(ws *Workspace) error {
		b, err := json.MarshalIndent(appConfig, "", "  ")
		if err != nil {
			return err
		}
		return ws.WriteFile("config/app.json", string(b)+"\n")
	},
	Flat: func(a *Agent) (string, error) {
		var config struct {
			Server struct {
				Port int `json:"port"`
			} `json:"server"`
		}
		if err := a.JSON("mcp__fs__read_text_file", Args{"path": "config/app.json"}, &config); err != nil {
			return "", err
		}
		return fmt.Sprintf("Port %d.", config.Server.Port), nil
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`return JSON.parse((await tools.mcp__fs__read_text_file({path: "config/app.json"})).content).server.port;`)
	},
	Check: func(_ context.Context, _ *Workspace, answer string) error {
		return wantAnswer(answer, "8443")
	},
}

// wantFile compares a file the agent wrote with what it should hold.
func wantFile(ws *Workspace, rel, want string) error {
	got, err := ws.ReadFile(rel)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	if got != want {
		return fmt.Errorf("%s holds %q, want %q", rel, got, want)
	}
	return nil
}

// wantAnswer checks a question's answer names the fact.
func wantAnswer(answer, fact string) error {
	if !strings.Contains(answer, fact) {
		return fmt.Errorf("the answer %q does not say %q", answer, fact)
	}
	return nil
}
