// Package shapes learns what MCP tools return, so the catalog can tell the
// model the shape of a result its tool does not declare.
//
// Most servers declare no outputSchema: their signatures end in
// Promise<unknown>, and a model guesses at field names. After a successful
// call, the value the script received is reduced to a Shape: field names and
// JSON types only, never a value. A structuredContent object gives its own
// shape; text that parses as a JSON object or array gives that shape marked
// as text holding JSON (the script receives a string and must parse it);
// other text is just text. Observations merge into a Note:
//
//	text, JSON { items: { html_url: string; id: number }[]; total_count: number }
//
// A field seen only sometimes becomes optional (name?: T), conflicting types
// become a union (number | string). Merging only ever grows a note, and
// bounds on depth, fields per object, fields per note and array elements
// read cap it, so a tool's note can change only a few times however often it
// is called: the catalog, which carries the note, stays stable. An object
// whose keys do not read as field names (ids, dates, URLs) is taken as a
// map, { [key: string]: T }, so no key that is really a value is shown.
//
// A Store keeps notes by tool, keyed by the server's name, the server's
// reported name and version and the tool's input schema, so a server
// upgrade starts afresh. It persists to a JSON file under the user cache
// directory (DefaultDir); a corrupt file is ignored with a warning and
// rebuilt.
package shapes
