# libpathconfig — build, test, install.
#
#   make run ARGS="resolve --config examples/path-configuration.json /messages/new"
#   make test        installs what is missing (as root, apt-get) and runs every suite
#   make install PREFIX=/usr/local
#   make bench

SHELL   := /bin/bash
PREFIX  ?= /usr/local
SWIFT   ?= swift
JOBS    ?= 2
# Where `make lib` puts the shipped, self-contained library and the CLI.
OUT     := $(CURDIR)/out
LIBDIR  := $(OUT)/lib
BINDIR  := $(OUT)/bin

VERSION       := $(shell sed -n 's/^\#define PATHCONFIG_VERSION "\(.*\)"/\1/p' include/pathconfig.h 2>/dev/null)
SOVERSION     := 0

.PHONY: all deps build cli run lib test test-swift test-c test-python test-rust install bench clean

all: build

## deps: install what a fresh Debian machine lacks (needs root; skipped when present)
deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build -j $(JOBS)

## cli: the pathconfig command in out/bin
cli: deps
	$(SWIFT) build -j $(JOBS) -c release --product pathconfig-cli
	@mkdir -p $(BINDIR)
	@cp "$$($(SWIFT) build -c release --show-bin-path)/pathconfig-cli" $(BINDIR)/pathconfig

run: cli
	@$(BINDIR)/pathconfig $(ARGS)

test-swift: deps
	$(SWIFT) build -j $(JOBS) --build-tests
	$(SWIFT) test -j $(JOBS) --skip-build

## test-python / test-rust: the bindings' own suites, against out/lib (built by `lib`)
test-python: lib
	$(MAKE) -C bindings/python test LIBDIR=$(LIBDIR)

test-rust: lib
	$(MAKE) -C bindings/rust test LIBDIR=$(LIBDIR)

test: test-swift

clean:
	rm -rf .build out
