package agent

import (
	"context"
	"fmt"
	"strings"
)

// Tasks over the memory server's knowledge graph.

// The team roster, a CSV file the team-graph task loads into memory.
var roster = [][3]string{
	{"Ana Souza", "Payments", "tech lead"}, {"Bruno Keller", "Payments", "backend engineer"},
	{"Chen Wei", "Payments", "backend engineer"}, {"Dana Whitfield", "Search", "engineering manager"},
	{"Emeka Obi", "Search", "data scientist"}, {"Fatima Zahra", "Search", "backend engineer"},
	{"Goran Petrov", "Mobile", "ios engineer"}, {"Hana Sato", "Mobile", "android engineer"},
	{"Ivan Horvat", "Mobile", "designer"}, {"Julia Nowak", "Payments", "product manager"},
	{"Kofi Mensah", "Search", "product manager"}, {"Lea Fischer", "Mobile", "product manager"},
}

func rosterCSV() string {
	var b strings.Builder
	b.WriteString("name,team,role\n")
	for _, p := range roster {
		fmt.Fprintf(&b, "%s,%s,%s\n", p[0], p[1], p[2])
	}
	return b.String()
}

var teamGraphTask = Task{
	Name:    "team-graph",
	Prompt:  "Load team.csv into memory: each person an entity of type person with the observation `role: ROLE`, each team an entity of type team, and a `member_of` relation from each person to their team.",
	Servers: []Server{Filesystem, Memory},
	Seed: func(ws *Workspace) error {
		return ws.WriteFile("team.csv", rosterCSV())
	},
	Flat: func(a *Agent) (string, error) {
		csv, err := a.Call("mcp__fs__read_text_file", Args{"path": "team.csv"})
		if err != nil {
			return "", err
		}
		var entities, relations []map[string]any
		teams := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(csv), "\n")[1:] {
			f := strings.Split(line, ",")
			entities = append(entities, map[string]any{"name": f[0], "entityType": "person", "observations": []string{"role: " + f[2]}})
			relations = append(relations, map[string]any{"from": f[0], "to": f[1], "relationType": "member_of"})
			if !teams[f[1]] {
				teams[f[1]] = true
				entities = append(entities, map[string]any{"name": f[1], "entityType": "team", "observations": []string{}})
			}
		}
		if _, err := a.Call("mcp__memory__create_entities", Args{"entities": entities}); err != nil {
			return "", err
		}
		if _, err := a.Call("mcp__memory__create_relations", Args{"relations": relations}); err != nil {
			return "", err
		}
		return fmt.Sprintf("Added %d people in %d teams.", len(relations), len(teams)), nil
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`const rows = (await tools.mcp__fs__read_text_file({path: "team.csv"})).content.trim().split("\n").slice(1).map(l => l.split(","));
const teams = [...new Set(rows.map(r => r[1]))];
await tools.mcp__memory__create_entities({entities: [
  ...rows.map(([name, team, role]) => ({name, entityType: "person", observations: ["role: " + role]})),
  ...teams.map(name => ({name, entityType: "team", observations: []})),
]});
await tools.mcp__memory__create_relations({relations: rows.map(([name, team]) => ({from: name, to: team, relationType: "member_of"}))});
return "Added " + rows.length + " people in " + teams.length + " teams.";`)
	},
	Check: func(ctx context.Context, ws *Workspace, _ string) error {
		g, err := ws.Graph(ctx)
		if err != nil {
			return err
		}
		if len(g.Entities) != len(roster)+3 || len(g.Relations) != len(roster) {
			return fmt.Errorf("the graph has %d entities and %d relations, want %d and %d", len(g.Entities), len(g.Relations), len(roster)+3, len(roster))
		}
		member := map[string]string{}
		for _, r := range g.Relations {
			if r.RelationType == "member_of" {
				member[r.From] = r.To
			}
		}
		for _, p := range roster {
			e, ok := g.Entity(p[0])
			if !ok || e.EntityType != "person" || len(e.Observations) != 1 || e.Observations[0] != "role: "+p[2] {
				return fmt.Errorf("person %q is %+v", p[0], e)
			}
			if member[p[0]] != p[1] {
				return fmt.Errorf("%s is member_of %q, want %q", p[0], member[p[0]], p[1])
			}
			if t, ok := g.Entity(p[1]); !ok || t.EntityType != "team" {
				return fmt.Errorf("team %q is missing", p[1])
			}
		}
		return nil
	},
}

// A graph an assistant has been writing to for a while: people, and the
// chat sessions it noted about them.
func assistantGraph() Graph {
	var g Graph
	employers := []string{"Northwind Traders", "Contoso", "Fabrikam", "Tailspin Toys", "Adventure Works"}
	for i, p := range roster[:10] {
		g.Entities = append(g.Entities, Entity{Name: p[0], EntityType: "person", Observations: []string{
			"works at " + employers[i%len(employers)], "role: " + p[2], fmt.Sprintf("prefers meetings before %d:00", 10+i%4),
		}})
	}
	for i := 1; i <= 15; i++ {
		name := fmt.Sprintf("session-2026-11-%02d", i)
		g.Entities = append(g.Entities, Entity{Name: name, EntityType: "session", Observations: []string{
			fmt.Sprintf("discussed the %s roadmap", roster[i%10][1]), "follow-up sent", fmt.Sprintf("lasted %d minutes", 20+i),
		}})
		g.Relations = append(g.Relations, Relation{From: name, To: roster[i%10][0], RelationType: "opened_by"})
	}
	return g
}

var pruneGraphTask = Task{
	Name:    "prune-graph",
	Prompt:  "Memory is full of old chat sessions: delete every entity of type session, and keep everything else.",
	Servers: []Server{Memory},
	Seed: func(ws *Workspace) error {
		return ws.SeedGraph(assistantGraph())
	},
	Flat: func(a *Agent) (string, error) {
		var g Graph
		if err := a.JSON("mcp__memory__read_graph", Args{}, &g); err != nil {
			return "", err
		}
		var sessions []string
		for _, e := range g.Entities {
			if e.EntityType == "session" {
				sessions = append(sessions, e.Name)
			}
		}
		if _, err := a.Call("mcp__memory__delete_entities", Args{"entityNames": sessions}); err != nil {
			return "", err
		}
		return fmt.Sprintf("Deleted %d sessions.", len(sessions)), nil
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`const g = await tools.mcp__memory__read_graph({});
const sessions = g.entities.filter(e => e.entityType === "session").map(e => e.name);
await tools.mcp__memory__delete_entities({entityNames: sessions});
return "Deleted " + sessions.length + " sessions.";`)
	},
	Check: func(ctx context.Context, ws *Workspace, _ string) error {
		g, err := ws.Graph(ctx)
		if err != nil {
			return err
		}
		people := 0
		for _, e := range g.Entities {
			switch e.EntityType {
			case "session":
				return fmt.Errorf("session %q is still there", e.Name)
			case "person":
				if len(e.Observations) != 3 {
					return fmt.Errorf("person %q lost observations: %v", e.Name, e.Observations)
				}
				people++
			}
		}
		if people != 10 || len(g.Relations) != 0 {
			return fmt.Errorf("%d people and %d relations remain, want 10 and none", people, len(g.Relations))
		}
		return nil
	},
}

var recallFactTask = Task{
	Name:    "recall-fact",
	Prompt:  "Where does Dana Whitfield work?",
	Servers: []Server{Memory},
	Seed: func(ws *Workspace) error {
		return ws.SeedGraph(assistantGraph())
	},
	Flat: func(a *Agent) (string, error) {
		var g Graph
		if err := a.JSON("mcp__memory__open_nodes", Args{"names": []string{"Dana Whitfield"}}, &g); err != nil {
			return "", err
		}
		for _, e := range g.Entities {
			for _, o := range e.Observations {
				if employer, ok := strings.CutPrefix(o, "works at "); ok {
					return "At " + employer + ".", nil
				}
			}
		}
		return "I don't know.", nil
	},
	Code: func(a *Agent) (string, error) {
		return a.Exec(`const {entities} = await tools.mcp__memory__open_nodes({names: ["Dana Whitfield"]});
return entities.flatMap(e => e.observations).filter(o => o.startsWith("works at "));`)
	},
	Check: func(_ context.Context, _ *Workspace, answer string) error {
		return wantAnswer(answer, "Tailspin Toys")
	},
}
