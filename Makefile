# Wisp: `make run` builds and opens Wisp; `make test` runs every test. Both install
# what they need first (scripts/deps.sh) and are quick when it is already there.

GO           ?= go
# SQLite's full-text search (FTS5) is compiled into mattn/go-sqlite3 only with the
# sqlite_fts5 tag: every build, test and vet of code that links app/store needs it.
STORE_TAGS   := sqlite_fts5
DESKTOP_TAGS := desktop,production,webkit2_41,$(STORE_TAGS)
SERVE_TAGS   := headless,$(STORE_TAGS)
VERSION      ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS      := -s -w -X main.version=$(VERSION)
BIN          := build/bin
# The Wails CLI from the same module version as go.mod pins, run with `go run` (no global
# install). Its tags come from wails.json (build:tags); it adds desktop+production to a
# build and dev to `wails dev`. -skipbindings: the page calls its one bound method directly
# (no generated frontend/wailsjs wrappers), and making them would run main(); -m and
# -nosyncgomod: leave go.mod and go.sum alone.
WAILS_VERSION = $(shell $(GO) list -m -f '{{.Version}}' github.com/wailsapp/wails/v2)
WAILS         = $(GO) run github.com/wailsapp/wails/v2/cmd/wails@$(WAILS_VERSION)
WAILS_FLAGS  := -skipbindings -m -nosyncgomod

.PHONY: run serve dev build build-serve wails-build fakellm frontend deps deps-build test test-go test-frontend e2e smoke package test-package bench bench-ui bench-voice bench-desktop clean

## run: build the desktop app and open it (headless machines get `wisp serve`)
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then exec $(BIN)/wisp; \
	else echo "No display: running headless. Open the URL it prints (it carries the token) in a browser."; exec $(BIN)/wisp serve; fi

## serve: build and run headless
serve: build
	exec $(BIN)/wisp serve

deps-build:
	@scripts/deps.sh build

deps:
	@scripts/deps.sh test

frontend: deps-build
	cd frontend && npm run build --silent

## build: the desktop binary (GTK/WebKit) and the headless one (libc only)
build: frontend
	$(GO) build -tags $(DESKTOP_TAGS) -trimpath -ldflags "$(LDFLAGS)" -o $(BIN)/wisp .

build-serve: frontend
	$(GO) build -tags $(SERVE_TAGS) -trimpath -ldflags "$(LDFLAGS)" -o $(BIN)/wisp-serve .

## dev: the desktop window with the frontend live-reloading from Vite and Go rebuilt on change (wails dev)
dev: deps-build
	$(WAILS) dev $(WAILS_FLAGS)

## wails-build: $(BIN)/wisp built by the Wails CLI (wails build); `make build` stays the reference
wails-build: deps-build
	$(WAILS) build $(WAILS_FLAGS) -trimpath -ldflags "-X main.version=$(VERSION)"

## test: everything CI runs
test: deps
	$(MAKE) --no-print-directory test-go test-frontend e2e smoke test-package

test-go: frontend
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet -tags $(STORE_TAGS) ./...
	$(GO) vet -tags $(DESKTOP_TAGS) ./app/...
	$(GO) test -tags $(STORE_TAGS) -race -count=1 ./...

test-frontend: deps
	cd frontend && npm run typecheck --silent && npm test --silent

## fakellm: the fake LLM (both wire protocols) for browser tests and trying Wisp without a key
fakellm:
	$(GO) build -trimpath -o $(BIN)/wisp-fakellm ./runtime/llm/llmtest/fakellm

e2e: build-serve fakellm
	cd frontend && WISP_BIN=../$(BIN)/wisp-serve WISP_FAKELLM_BIN=../$(BIN)/wisp-fakellm npm run e2e --silent

smoke: build
	scripts/desktop-smoke.sh $(BIN)/wisp

## package: the desktop build as a Debian package, build/package/wisp_<version>_<arch>.deb
package: build
	scripts/package.sh $(BIN)/wisp build/package

## test-package: lint the package; as root, install it with apt-get, run it from /usr/bin (version, desktop smoke test), remove it
test-package: deps package
	scripts/package-test.sh

## bench: start-up, idle RSS, chat and terminal latency/throughput, emote broadcast, config-save, proactive-message, shell-approval and MCP tool-call latency against their floors, search in a million messages against the bare FTS5 query, context assembly on a 10,000-message branch, a 200-page PDF's text against pdftotext, a 64 MiB upload against a bare copy to disk, FETCH_URL on a 1 MiB page against a bare fetch; updates BENCHMARKS.md
bench: build-serve fakellm
	$(GO) build -trimpath -ldflags "-s -w" -o $(BIN)/wisp-floor ./bench/floor
	$(GO) build -tags sdk -trimpath -ldflags "-s -w" -o $(BIN)/wisp-floor-sdk ./bench/floor
	$(GO) run -tags $(STORE_TAGS) ./bench/startup --wisp $(BIN)/wisp-serve --floor $(BIN)/wisp-floor --floor-sdk $(BIN)/wisp-floor-sdk --runs 15 --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/chat --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/terminal --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/emote --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/config --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/proactive --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/longreply --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/approval --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/mcpcall --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/search --wisp $(BIN)/wisp-serve --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/context --fakellm $(BIN)/wisp-fakellm --out BENCHMARKS.md
	@scripts/deps.sh bench
	$(GO) run ./bench/pdftext --wisp $(BIN)/wisp-serve --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/upload --out BENCHMARKS.md
	$(GO) run ./bench/webfetch --out BENCHMARKS.md
	$(GO) run -tags $(STORE_TAGS) ./bench/taskrun --out BENCHMARKS.md

## bench-ui: in Chromium, an 8,000-token reply and 128 KB of hostile markdown against a bare page fed from memory, 100 vs 10,000 messages, and voice (first token → speech, push-to-talk → transcript) against the audio servers; updates BENCHMARKS.md
bench-ui: build-serve fakellm
	cd frontend && WISP_BIN=../$(BIN)/wisp-serve WISP_FAKELLM_BIN=../$(BIN)/wisp-fakellm npx vitest run --config vitest.uibench.config.ts

## bench-voice: in Chromium, first reply token → first clause heard and push-to-talk released → transcript, against the fake audio servers' own times (also part of bench-ui); updates BENCHMARKS.md
bench-voice: build-serve fakellm
	cd frontend && WISP_BIN=../$(BIN)/wisp-serve WISP_FAKELLM_BIN=../$(BIN)/wisp-fakellm npx vitest run --config vitest.uibench.config.ts bench/voice.uibench.ts

## bench-desktop: CPU share and memory of the desktop build at idle in Xvfb, window visible and hidden, with the built-in character and with a VRM; updates BENCHMARKS.md
bench-desktop: deps build
	$(GO) run -tags $(STORE_TAGS) ./bench/desktopidle --wisp $(BIN)/wisp --vrm frontend/e2e/fixtures/wisp-test.vrm --out BENCHMARKS.md

clean:
	rm -rf build/bin artifacts frontend/e2e/artifacts
	find frontend/dist -mindepth 1 ! -name .keep -delete
