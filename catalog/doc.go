// Package catalog renders an MCP tool pool as the model-visible catalog and
// answers the in-sandbox search over the same pool.
//
// Every tool becomes one entry: its description's first line that says
// something (a heading or label line such as "🎯 Purpose:" is passed over),
// then its call form with a multi-line TypeScript signature rendered from
// its JSON Schemas, fields carrying their descriptions and constraints as
// JSDoc, and the return type rendered from its outputSchema by the same
// renderer:
//
//	/** Create multiple new entities in the knowledge graph */
//	tools.mcp__memory__create_entities(args: {
//	  entities: Array<{
//	    /** The name of the entity */
//	    name: string;
//	  }>;
//	}): Promise<{ ... }>
//
// Entries are grouped by server (Namespace) and fitted into a token budget
// (characters / 4, priced per whole entry) by rotation across servers,
// cheapest entries first. When the pool does not fit, the catalog says so:
// one summary line per server, the search entry's signature (rendered from
// SearchSchema, the same schema Index.Search validates against) and a
// PARTIAL line with the shown and total counts. Nothing model-visible
// depends on the budget, the pool's order or the time: the same pool always
// renders to the same bytes.
//
// Render is pure. A Renderer keeps each tool's rendered entry keyed by the
// tool's content, so rebuilding after one server changes re-renders only
// that server's tools. An Index serves searches over a whole snapshot,
// whatever the catalog showed, ranked: tool names are read as words
// (snake_case, camelCase, dots, hyphens), words are lightly stemmed and
// common synonyms stand for each other, and field-weighted BM25 over the
// name, server, summary, description and parameter names orders the hits,
// an exact or near-exact name first (search.go, searchrank.go).
// testdata/search-eval.tsv holds the queries its quality is measured on.
//
// The model-visible wording is in text.go.
package catalog
