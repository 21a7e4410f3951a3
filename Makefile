# Two commands set up everything on a fresh machine: `make demo` and `make test`.
# Each installs what it needs: the tour, the Go modules alone (its MCP servers
# are built in); the tests, the npm packages besides (an MCP server, Node 22,
# the conformance suite, the TypeScript SDK, the agent benchmark's servers and
# tokenizer).

GO        ?= go
NPM_DIR   := .tools/npm
# The real third-party MCP server the pool tests talk to over stdio.
EVERYTHING_VERSION := 2026.8.31
EVERYTHING_BIN := $(NPM_DIR)/node_modules/.bin/mcp-server-everything
# The MCP conformance suite, and the Node 22 it needs (from npm, so nothing
# beyond npm itself has to be on the machine). The stamps carry the versions:
# changing a pin installs again.
NODE22_VERSION := 22.23.3
NODE22_DIR     := .tools/node22
NODE22_STAMP   := $(NODE22_DIR)/.installed-$(NODE22_VERSION)
CONFORMANCE_VERSION := 0.2.0-alpha.12
CONFORMANCE_DIR     := .tools/conformance
CONFORMANCE_STAMP   := $(CONFORMANCE_DIR)/.installed-$(CONFORMANCE_VERSION)
# The official TypeScript SDK, whose client drives the gateway end to end.
TSSDK_VERSION := 1.32.2
TSSDK_DIR     := .tools/ts-sdk
TSSDK_STAMP   := $(TSSDK_DIR)/.installed-$(TSSDK_VERSION)
# The agent benchmark's servers beside server-everything, and the tokenizer
# its context is counted with (o200k_base).
FILESYSTEM_VERSION    := 2026.8.31
MEMORY_VERSION        := 2026.8.31
GPT_TOKENIZER_VERSION := 4.0.0
BENCH_DIR   := .tools/bench
BENCH_STAMP := $(BENCH_DIR)/.installed-$(FILESYSTEM_VERSION)-$(MEMORY_VERSION)-$(GPT_TOKENIZER_VERSION)

.PHONY: demo test bench bench-agent bench-side-by-side fmt vet deps fuzz

deps: $(EVERYTHING_BIN) $(NODE22_STAMP) $(CONFORMANCE_STAMP) $(TSSDK_STAMP) $(BENCH_STAMP)
	$(GO) mod download

$(EVERYTHING_BIN):
	mkdir -p $(NPM_DIR)
	cd $(NPM_DIR) && npm install --no-audit --no-fund --loglevel=error \
		@modelcontextprotocol/server-everything@$(EVERYTHING_VERSION)

demo:
	$(GO) mod download
	$(GO) run ./cmd/demo

$(NODE22_STAMP):
	rm -rf $(NODE22_DIR) && mkdir -p $(NODE22_DIR)
	cd $(NODE22_DIR) && npm install --no-audit --no-fund --loglevel=error node@$(NODE22_VERSION)
	touch $@

$(CONFORMANCE_STAMP):
	rm -rf $(CONFORMANCE_DIR) && mkdir -p $(CONFORMANCE_DIR)
	cd $(CONFORMANCE_DIR) && npm install --no-audit --no-fund --loglevel=error \
		@modelcontextprotocol/conformance@$(CONFORMANCE_VERSION)
	touch $@

$(TSSDK_STAMP):
	rm -rf $(TSSDK_DIR) && mkdir -p $(TSSDK_DIR)
	cd $(TSSDK_DIR) && npm install --no-audit --no-fund --loglevel=error \
		@modelcontextprotocol/sdk@$(TSSDK_VERSION)
	touch $@

$(BENCH_STAMP):
	rm -rf $(BENCH_DIR) && mkdir -p $(BENCH_DIR)
	cd $(BENCH_DIR) && npm install --no-audit --no-fund --loglevel=error \
		@modelcontextprotocol/server-filesystem@$(FILESYSTEM_VERSION) \
		@modelcontextprotocol/server-memory@$(MEMORY_VERSION) \
		gpt-tokenizer@$(GPT_TOKENIZER_VERSION)
	touch $@

vet:
	$(GO) vet ./...

test: deps vet
	$(GO) test -race -count=1 -timeout 15m ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./...

# Each agent task done flat and in code mode through `mcpexec serve`: turns,
# context tokens, time and the final state, as a table (BENCHMARKS.md).
bench-agent: deps
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
		$(GO) build -o "$$dir/mcpexec" ./cmd/mcpexec && \
		$(GO) run ./cmd/benchagent --mcpexec "$$dir/mcpexec" --tools .tools

# The Exec benchmarks beside the warm Node anchor, three rounds in one sitting.
bench-side-by-side: $(NODE22_STAMP)
	NODE=$(CURDIR)/$(NODE22_DIR)/node_modules/node/bin/node bench/side-by-side.sh . 3

fmt:
	gofmt -w $$(git ls-files -co --exclude-standard '*.go')
