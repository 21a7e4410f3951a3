# Two commands set up everything on a fresh machine: `make demo` and `make test`.
# Both install what they need (Go modules, the npm MCP servers the tests use).

GO        ?= go
NPM_DIR   := .tools/npm
# The real third-party MCP server the pool tests talk to over stdio.
EVERYTHING_VERSION := 2026.8.31
EVERYTHING_BIN := $(NPM_DIR)/node_modules/.bin/mcp-server-everything

.PHONY: demo test bench fmt vet deps fuzz

deps: $(EVERYTHING_BIN)
	$(GO) mod download

$(EVERYTHING_BIN):
	mkdir -p $(NPM_DIR)
	cd $(NPM_DIR) && npm install --no-audit --no-fund --loglevel=error \
		@modelcontextprotocol/server-everything@$(EVERYTHING_VERSION)

demo: deps
	$(GO) run ./cmd/demo

vet:
	$(GO) vet ./...

test: deps vet
	$(GO) test -race -count=1 -timeout 15m ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./...

fmt:
	gofmt -w $$(git ls-files -co --exclude-standard '*.go')
