package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The srv server: a small record store whose tools return structured
// content and declare an outputSchema, so a script gets objects it can pass
// straight on (fetch, then store).

const srvInstructions = "A small record store. Records have integer ids 1 to 5. " +
	"fetch returns a record as an object; store keeps any JSON value and returns the key it was stored under."

// record is what fetch returns, as recordSchema declares it.
type record struct {
	ID    int      `json:"id"`
	Title string   `json:"title"`
	Owner string   `json:"owner"`
	Tags  []string `json:"tags"`
}

// Output schemas are written by hand, as many real servers do: the SDK's
// inference from Go types makes every slice nullable.
var (
	recordSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"id":{"type":"integer","description":"the record id"},` +
		`"title":{"type":"string","description":"a one-line title"},` +
		`"owner":{"type":"string","description":"who maintains the record"},` +
		`"tags":{"type":"array","items":{"type":"string"},"description":"labels, lower case"}},` +
		`"required":["id","title","owner","tags"]}`)
	listSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"records":{"type":"array","items":{"type":"object","properties":{` +
		`"id":{"type":"integer"},"title":{"type":"string"}},"required":["id","title"]}}},` +
		`"required":["records"]}`)
)

// records are the store's fixed contents: byte-stable replies make the
// demo's output reproducible.
var records = []record{
	{1, "Quarterly report", "ada", []string{"finance", "q3"}},
	{2, "Release checklist", "grace", []string{"release"}},
	{3, "Incident 42 postmortem", "linus", []string{"ops", "incident"}},
	{4, "Onboarding guide", "ada", []string{"people"}},
	{5, "Roadmap draft", "grace", []string{"planning", "draft"}},
}

func findRecord(id int) (record, bool) {
	for _, r := range records {
		if r.ID == id {
			return r, true
		}
	}
	return record{}, false
}

type fetchArgs struct {
	ID int `json:"id" jsonschema:"the id of the record to fetch"`
}

type storeArgs struct {
	Value any `json:"value" jsonschema:"any JSON value to keep"`
}

type storeReply struct {
	Key    string `json:"key" jsonschema:"the key the value was stored under"`
	Stored any    `json:"stored" jsonschema:"the value as stored"`
}

type listArgs struct {
	Tag string `json:"tag,omitempty" jsonschema:"only records carrying this tag; omit for all"`
}

type listReply struct {
	Records []listedRecord `json:"records"`
}

type listedRecord struct {
	ID    int    `json:"id"`
	Title string `json:"title"`
}

type deleteArgs struct {
	ID int `json:"id" jsonschema:"the id of the record to delete"`
}

func newRecordsServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1.0.0"},
		&mcp.ServerOptions{Instructions: srvInstructions})
	var (
		mu     sync.Mutex
		stored []json.RawMessage
	)
	mcp.AddTool(s, &mcp.Tool{Name: "fetch", Description: "Fetch one record by id.", OutputSchema: recordSchema},
		func(_ context.Context, _ *mcp.CallToolRequest, in fetchArgs) (*mcp.CallToolResult, *record, error) {
			r, ok := findRecord(in.ID)
			if !ok {
				// A handler error becomes an isError result; returning a
				// result of our own would get the zero record attached as
				// structured content.
				return nil, nil, fmt.Errorf("no record with id %d", in.ID)
			}
			return nil, &r, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "store", Description: "Store a JSON value and return its key."},
		func(_ context.Context, _ *mcp.CallToolRequest, in storeArgs) (*mcp.CallToolResult, *storeReply, error) {
			raw, err := json.Marshal(in.Value)
			if err != nil {
				return nil, nil, err
			}
			mu.Lock()
			stored = append(stored, raw)
			key := "value-" + strconv.Itoa(len(stored))
			mu.Unlock()
			return nil, &storeReply{Key: key, Stored: in.Value}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "list", Description: "List record ids and titles, optionally by tag.", OutputSchema: listSchema},
		func(_ context.Context, _ *mcp.CallToolRequest, in listArgs) (*mcp.CallToolResult, *listReply, error) {
			out := &listReply{Records: []listedRecord{}}
			for _, r := range records {
				if in.Tag == "" || slices.Contains(r.Tags, in.Tag) {
					out.Records = append(out.Records, listedRecord{r.ID, r.Title})
				}
			}
			return nil, out, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "delete", Description: "Delete a record. Destructive: hosts usually ask first."},
		func(_ context.Context, _ *mcp.CallToolRequest, in deleteArgs) (*mcp.CallToolResult, any, error) {
			if _, ok := findRecord(in.ID); !ok {
				return errorResult(fmt.Sprintf("no record with id %d", in.ID)), nil, nil
			}
			// The store is a demo: nothing is really removed.
			return textResult(fmt.Sprintf("deleted record %d", in.ID)), nil, nil
		})
	return s
}
