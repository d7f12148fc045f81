# libpathconfig — build, test, install.
#
#   make run ARGS="resolve --config examples/path-configuration.json /messages/new"
#   make test        installs what is missing (as root, apt-get) and runs every suite
#   make install PREFIX=/usr/local
#   make dist        every release artifact in dist/ (tarball, .debs, Python sdist and wheel, crate, gem), SHA256SUMS
#   make cli         the pathconfig command alone, in out/bin
#   make test-readme every code block of README.md, docs/ and the bindings' READMEs, run as a reader would
#   make schema      docs/path-configuration.schema.json written again from the library (make test-schema: checked with jsonschema)
#   make test-sanitize the C, Swift, Python and Ruby suites under AddressSanitizer and ThreadSanitizer
#   make soak SOAK_SECONDS=60
#   make bench
#   make bench-ablation   each speed layer switched off alone (bench/README.md)
#   make fuzz FUZZ_SECONDS=300   every fuzz target for 300 s each (make fuzz-load: one)

SHELL   := /bin/bash
# make splits file names at spaces, and the rules here name files by absolute
# path: in a clone whose path holds one, the first of them would fail with
# an error about something else.
ifneq ($(words $(CURDIR)),1)
$(error the path of this clone holds a space ("$(CURDIR)"), which make cannot name files under; clone into a path without one)
endif
PREFIX  ?= /usr/local
SWIFT   ?= swift
JOBS    ?= 2
# The Python suite and the README test run on Debian's interpreter, whose
# pytest, venv and pip `make deps` installs (python3-pytest, python3-venv,
# python3-pip). PYTHON=python3 runs them on another one that has pytest.
PYTHON  ?= /usr/bin/python3
# The suites download from servers on 127.0.0.1. libcurl (the loader's HTTP)
# and Python's urllib go through a proxy the environment names, and one
# that cannot reach this machine's loopback would fail them; the loopback is
# reached directly, other hosts (apt-get's) as the environment says.
comma := ,
ifeq ($(filter 127.0.0.1,$(subst $(comma), ,$(no_proxy))),)
export no_proxy := 127.0.0.1,localhost$(if $(no_proxy),$(comma)$(no_proxy))
endif
# Where `make lib` puts the shipped, self-contained library and the CLI.
OUT     := $(CURDIR)/out
LIBDIR  := $(OUT)/lib
BINDIR  := $(OUT)/bin

# The C API: include/pathconfig.h, the umbrella, and its parts in
# include/pathconfig/ (the version macros are in pathconfig/common.h).
HEADER_PARTS  := $(wildcard include/pathconfig/*.h)
VERSION       := $(shell sed -n 's/^\#define PATHCONFIG_VERSION "\(.*\)"/\1/p' include/pathconfig/common.h 2>/dev/null)
SOVERSION     := 1

.PHONY: all deps build cli run lib test test-swift test-c test-python test-rust test-ruby test-readme install bench bench-deps bench-ablation \
        check-version abi-check abi-baseline test-packaging dist-python dist-crate \
        fuzz fuzz-build fuzz-short fuzz-prefilter-loop test-sanitize test-sanitize-address test-sanitize-thread soak clean \
        man completions install-files dist dist-tarball dist-deb deb-deps test-dist dist-gem

all: build

## deps: install what a fresh Debian machine lacks (needs root; skipped when present)
deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build -j $(JOBS)

## cli: the pathconfig command in out/bin, self-contained like the library
## (the Swift runtime and Foundation linked in statically, stripped): it needs
## only libc, libm, libstdc++, libgcc_s, libpcre2-8 and libidn2, and keeps working when
## the toolchain that built it moves. Built in the library's build folder with
## the library's Swift flags, so that the modules both link compile once
## (a separate folder took 165 s from nothing; here, after `make lib`, 110 s).
LIBBUILD := .build-lib
cli: deps
	$(SWIFT) build -j $(JOBS) -c release --product pathconfig-cli --scratch-path $(LIBBUILD) --disable-local-rpath -Xswiftc -static-stdlib
	@mkdir -p $(BINDIR)
	strip --strip-unneeded -o $(BINDIR)/pathconfig $(LIBBUILD)/release/pathconfig-cli

## run: the pathconfig command with ARGS. Prints only the command's output:
## the build's goes to out/cli-build.log, shown when the build fails.
run:
	@mkdir -p $(OUT)
	@$(MAKE) --no-print-directory cli > $(OUT)/cli-build.log 2>&1 || \
	    { cat $(OUT)/cli-build.log >&2; echo "make run: building pathconfig failed (log: out/cli-build.log)" >&2; exit 1; }
	@$(BINDIR)/pathconfig $(ARGS)

## lib: libpathconfig.so (self-contained: Swift runtime linked in statically,
## only pathconfig_* exported; -z nodelete because the runtime and the
## thread-local error keep thread-exit hooks, so dlclose must not unmap it;
## no $ORIGIN runpath, which it does not need and Debian forbids),
## the header (pathconfig.h and its parts, pathconfig/*.h) and pathconfig.pc, in out/
lib: deps
	$(SWIFT) build -j $(JOBS) -c release --product pathconfig --scratch-path $(LIBBUILD) --disable-local-rpath \
	    -Xswiftc -static-stdlib \
	    -Xlinker -soname=libpathconfig.so.$(SOVERSION) \
	    -Xlinker --version-script=$(CURDIR)/packaging/pathconfig.map \
	    -Xlinker -z -Xlinker nodelete
	@rm -rf $(OUT)/include
	@mkdir -p $(LIBDIR)/pkgconfig $(OUT)/include/pathconfig
	@rm -f $(LIBDIR)/libpathconfig.so*
	strip --strip-unneeded -o $(LIBDIR)/libpathconfig.so.$(VERSION) $(LIBBUILD)/release/libpathconfig.so
	@ln -sf libpathconfig.so.$(VERSION) $(LIBDIR)/libpathconfig.so.$(SOVERSION)
	@ln -sf libpathconfig.so.$(SOVERSION) $(LIBDIR)/libpathconfig.so
	@cp include/pathconfig.h $(OUT)/include/pathconfig.h
	@cp $(HEADER_PARTS) $(OUT)/include/pathconfig/
	@sed -e 's|@PREFIX@|$(OUT)|' -e 's|@LIBSUBDIR@|lib|' -e 's|@VERSION@|$(VERSION)|' packaging/pathconfig.pc.in > $(LIBDIR)/pkgconfig/pathconfig.pc
	@echo "out/lib/libpathconfig.so.$(VERSION): $$(stat -c %s $(LIBDIR)/libpathconfig.so.$(VERSION)) bytes stripped"

## man: the manual page out/share/man/man1/pathconfig.1, made from the
## command's own help by swift-argument-parser's generate-manual plugin (which
## builds the package in debug, in .build as `make build` does, offline from
## the package mirror, and reads the command's --experimental-dump-help). Dated
## by the last commit (SOURCE_DATE_EPOCH), so a rebuild gives the same page.
## mdoc forbids the empty lines the plugin leaves between the paragraphs of a
## subcommand's discussion; they become paragraph breaks (.Pp). Made again
## only when Package.swift, a file or folder of Sources/ or the date changed:
## the plugin takes about 6 s even when nothing did, and every `make install`
## asks for the page (`make test-readme` installs once a page of docs/).
ifndef SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
endif
SHAREDIR       := $(OUT)/share
MANPAGE        := $(SHAREDIR)/man/man1/pathconfig.1
MAN_PLUGIN_OUT := .build/plugins/GenerateManual/outputs/pathconfig-cli
MAN_DATE       := $(shell date -u -d @$(SOURCE_DATE_EPOCH) +%F)
man: $(MANPAGE)
$(MANPAGE): Package.swift $(shell find Sources) $(OUT)/man-date | deps
	$(SWIFT) package -j $(JOBS) plugin generate-manual --configuration debug \
	    --authors "the libpathconfig authors" --date $(MAN_DATE)
	@mkdir -p $(dir $(MANPAGE))
	sed 's/^$$/.Pp/' $(MAN_PLUGIN_OUT)/pathconfig.1 > $(MANPAGE)

# The page's date, rewritten only when it changes (so that it dates the page).
$(OUT)/man-date: FORCE
	@mkdir -p $(OUT)
	@[ "$$(cat $@ 2>/dev/null)" = "$(MAN_DATE)" ] || echo "$(MAN_DATE)" > $@
FORCE:

## completions: the bash, zsh and fish completions the command prints
## (--generate-completion-script), in out/share/ under the names they have in a prefix
COMPLETION_BASH := bash-completion/completions/pathconfig
COMPLETION_ZSH  := zsh/site-functions/_pathconfig
COMPLETION_FISH := fish/vendor_completions.d/pathconfig.fish
completions: cli
	@mkdir -p $(addprefix $(SHAREDIR)/,$(dir $(COMPLETION_BASH) $(COMPLETION_ZSH) $(COMPLETION_FISH)))
	$(BINDIR)/pathconfig --generate-completion-script bash > $(SHAREDIR)/$(COMPLETION_BASH)
	$(BINDIR)/pathconfig --generate-completion-script zsh > $(SHAREDIR)/$(COMPLETION_ZSH)
	$(BINDIR)/pathconfig --generate-completion-script fish > $(SHAREDIR)/$(COMPLETION_FISH)

## install: the library, header (pathconfig.h and pathconfig/*.h), pkg-config
## file, the pathconfig command, its manual and completions into
## $(DESTDIR)$(PREFIX); as root into the system (no DESTDIR), ldconfig after.
## Where each goes under PREFIX (override to suit a distribution; the Debian
## packages use lib/<multiarch> and zsh's vendor-completions):
LIBSUBDIR   ?= lib
MAN1DIR     ?= $(PREFIX)/share/man/man1
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
install: lib cli man completions
	@$(MAKE) --no-print-directory install-files
	@# Refresh the loader's cache so programs find libpathconfig.so.1 in a system prefix.
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

## install-files: what lib, cli, man and completions left in out/, copied
## into $(DESTDIR)$(PREFIX) (make install, and make dist's staging)
INSTALL_LIBDIR = $(DESTDIR)$(PREFIX)/$(LIBSUBDIR)
install-files:
	install -d $(INSTALL_LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include/pathconfig $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(LIBDIR)/libpathconfig.so.$(VERSION) $(INSTALL_LIBDIR)/
	ln -sf libpathconfig.so.$(VERSION) $(INSTALL_LIBDIR)/libpathconfig.so.$(SOVERSION)
	ln -sf libpathconfig.so.$(SOVERSION) $(INSTALL_LIBDIR)/libpathconfig.so
	install -m 644 include/pathconfig.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(HEADER_PARTS) $(DESTDIR)$(PREFIX)/include/pathconfig/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBSUBDIR@|$(LIBSUBDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    packaging/pathconfig.pc.in > $(INSTALL_LIBDIR)/pkgconfig/pathconfig.pc
	install -m 755 $(BINDIR)/pathconfig $(DESTDIR)$(PREFIX)/bin/pathconfig
	install -m 644 $(MANPAGE) $(DESTDIR)$(MAN1DIR)/
	install -m 644 $(SHAREDIR)/$(COMPLETION_BASH) $(DESTDIR)$(BASHCOMPDIR)/
	install -m 644 $(SHAREDIR)/$(COMPLETION_ZSH) $(DESTDIR)$(ZSHCOMPDIR)/
	install -m 644 $(SHAREDIR)/$(COMPLETION_FISH) $(DESTDIR)$(FISHCOMPDIR)/
	install -d $(DESTDIR)$(PREFIX)/share/pathconfig
	install -m 644 docs/path-configuration.schema.json $(DESTDIR)$(PREFIX)/share/pathconfig/

## dist: every release artifact in dist/, all of one VERSION (the header's
## PATHCONFIG_VERSION), then dist/SHA256SUMS over every file there:
##   dist-tarball  libpathconfig-VERSION-linux-x86_64.tar.gz, a prefix to unpack anywhere
##   dist-deb      the Debian packages libpathconfig1, libpathconfig-dev, pathconfig
##   dist-python   the Python sdist and manylinux wheel (distribution libpathconfig)
##   dist-crate    the Rust crate (cargo package)
##   dist-gem      the Ruby gem (gem build)
## Each replaces its own older files in dist/. Archives are sorted, root-owned
## and dated SOURCE_DATE_EPOCH (the last commit's date), so packaging the same
## build again gives the same bytes.
DIST      := $(CURDIR)/dist
DISTSTAGE := $(OUT)/dist
TARBALL   := libpathconfig-$(VERSION)-linux-x86_64
dist: dist-tarball dist-deb dist-python dist-crate dist-gem
	cd $(DIST) && rm -f SHA256SUMS && \
	    find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -r sha256sum > SHA256SUMS
	@cat $(DIST)/SHA256SUMS

## dist-tarball: `make install-files` into a staging prefix, whose
## pathconfig.pc then finds its prefix from its own place (${pcfiledir}), with
## README.md, LICENSE, CHANGELOG.md and the manual (docs/) beside; one top
## directory, TARBALL.
dist-tarball: lib cli man completions
	rm -rf $(DISTSTAGE)/$(TARBALL)
	$(MAKE) --no-print-directory install-files DESTDIR= PREFIX=$(DISTSTAGE)/$(TARBALL)
	sed -i 's|^prefix=.*|prefix=$${pcfiledir}/../..|' $(DISTSTAGE)/$(TARBALL)/lib/pkgconfig/pathconfig.pc
	install -m 644 README.md LICENSE CHANGELOG.md $(DISTSTAGE)/$(TARBALL)/
	install -d $(DISTSTAGE)/$(TARBALL)/docs && install -m 644 docs/*.md $(DISTSTAGE)/$(TARBALL)/docs/
	@mkdir -p $(DIST)
	rm -f $(DIST)/libpathconfig-*-linux-x86_64.tar.gz
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(SOURCE_DATE_EPOCH) \
	    -C $(DISTSTAGE) -cf - $(TARBALL) | gzip -9n > $(DIST)/$(TARBALL).tar.gz

## dist-deb: `make install-files` into a staging root as Debian lays a system
## out (/usr, lib/<multiarch>, zsh's vendor-completions), split into the three
## packages by packaging/debian/build-debs.sh (which says how).
DEB_STAGE := $(DISTSTAGE)/deb
dist-deb: deb-deps lib cli man completions
	rm -rf $(DEB_STAGE)
	$(MAKE) --no-print-directory install-files DESTDIR=$(DEB_STAGE)/root PREFIX=/usr \
	    LIBSUBDIR=lib/$$(dpkg-architecture -qDEB_HOST_MULTIARCH) ZSHCOMPDIR=/usr/share/zsh/vendor-completions
	SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) bash packaging/debian/build-debs.sh $(VERSION) $(DEB_STAGE) $(DIST)

## deb-deps: what building the Debian packages needs (dpkg-dev), installed when missing
deb-deps: deps
	@bash scripts/install-deb-deps.sh

## test-dist: the tarball unpacked in a temporary place and the .debs
## installed with dpkg, each used as a C developer would (examples/c through
## pkg-config) and removed again; lintian on the .debs (Tests/DistTests)
test-dist: dist-tarball dist-deb
	bash Tests/DistTests/test_tarball.sh $(DIST)/$(TARBALL).tar.gz $(VERSION)
	bash Tests/DistTests/test_debs.sh $(DIST) $(VERSION)

test-swift: deps
	$(SWIFT) build -j $(JOBS) --build-tests
	$(SWIFT) test -j $(JOBS) --skip-build --disable-xctest

## schema: docs/path-configuration.schema.json, the JSON Schema the library
## makes, as the debug `pathconfig schema` (built in .build) prints it. Run it
## after changing a table the schema is made from: a Swift test
## (SchemaCommandTests) fails while the committed file differs.
.PHONY: schema test-schema
schema: deps
	$(SWIFT) build -j $(JOBS) --product pathconfig-cli
	$$($(SWIFT) build --show-bin-path)/pathconfig-cli schema > docs/path-configuration.schema.json.tmp
	mv docs/path-configuration.schema.json.tmp docs/path-configuration.schema.json

## test-schema: the committed schema checked by a real validator, jsonschema
## from PyPI (Tests/SchemaTests/requirements.txt, in out/schema-venv): a valid
## draft 2020-12 schema that every example and conformance configuration
## passes, but those Tests/SchemaTests/expectations.json lists, which fail it
## where it says, as its other broken documents do
SCHEMA_VENV := $(OUT)/schema-venv
test-schema: deps $(SCHEMA_VENV)/installed
	PATHCONFIG_CONFORMANCE=$(CURDIR)/Tests/Fixtures/conformance \
	    $(SCHEMA_VENV)/bin/python -m pytest -q -p no:cacheprovider Tests/SchemaTests

# Made again when the requirements change.
$(SCHEMA_VENV)/installed: Tests/SchemaTests/requirements.txt
	test -x $(SCHEMA_VENV)/bin/python || $(PYTHON) -m venv $(SCHEMA_VENV)
	$(SCHEMA_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r Tests/SchemaTests/requirements.txt
	touch $@

## test-python / test-rust: the bindings' own suites, against out/lib (built by `lib`)
test-python: lib cli
	$(MAKE) -C bindings/python test LIBDIR=$(LIBDIR) PYTHON=$(PYTHON)

test-rust: lib
	$(MAKE) -C bindings/rust test LIBDIR=$(LIBDIR)

## test-ruby: the Ruby gem's suites (Minitest and RSpec), against out/lib
test-ruby: lib
	$(MAKE) -C bindings/ruby test LIBDIR=$(LIBDIR)

## test-c: the C ABI suite (conformance, errors, getters), threads, valgrind,
## exports, and examples/c built against an installed copy
test-c: lib
	$(MAKE) -C Tests/CTests --no-print-directory check valgrind symbols example \
	    ROOT=$(CURDIR) LIBDIR=$(LIBDIR) INCDIR=$(OUT)/include CONFORMANCE=$(CURDIR)/Tests/Fixtures/conformance

## test-readme: every code block of README.md, of each page of docs/ and of
## the bindings' READMEs, run as a reader would, each file on its own
## (Tests/ReadmeTests/readme_test.py says how). docs/ARCHITECTURE.md is left
## out: its blocks are diagrams and listings, not code.
READMES := README.md $(sort $(filter-out docs/ARCHITECTURE.md,$(wildcard docs/*.md))) \
           bindings/python/README.md bindings/rust/README.md bindings/ruby/README.md
test-readme: lib cli
	$(PYTHON) -m pytest -q -p no:cacheprovider Tests/ReadmeTests
	$(PYTHON) Tests/ReadmeTests/readme_test.py --repo $(CURDIR) --lib $(LIBDIR) $(READMES)

## check-version: every place that states the version agrees with
## PATHCONFIG_VERSION of include/pathconfig/common.h (the one source): the
## Swift core's Version.swift, the Python package's __version__, the crate's
## Cargo.toml and Cargo.lock, the bindings' mirrors of the header, and what
## the built library (pathconfig_version()) and command (--version) say.
## scripts/check_version.py names each file that disagrees.
check-version: lib cli
	$(PYTHON) scripts/check_version.py --repo $(CURDIR) --lib $(LIBDIR)/libpathconfig.so --cli $(BINDIR)/pathconfig

## abi-check: the C ABI of out/lib/libpathconfig.so against the committed
## baseline packaging/libpathconfig.abi (libabigail's abidw and abidiff, from
## Debian's abigail-tools): fails on a removed function, a changed prototype or
## a changed struct layout unless the SONAME (SOVERSION) changed with it;
## additions pass and are listed. The ABI is every function the library
## exports, its symbol version and the SONAME, with the prototypes and types
## include/ declares (scripts/abi.py says how, and why a stand-in carries the
## types). abi-baseline: record the current ABI as the baseline, deliberately
## (after an addition, or with a new SOVERSION).
ABI_BASELINE := packaging/libpathconfig.abi
ABI_ARGS      = --include $(CURDIR)/include --version-script $(CURDIR)/packaging/pathconfig.map --lib $(LIBDIR)/libpathconfig.so
abi-check: lib
	$(PYTHON) scripts/abi.py check $(ABI_ARGS) --baseline $(ABI_BASELINE)

abi-baseline: lib
	$(PYTHON) scripts/abi.py dump $(ABI_ARGS) --out $(ABI_BASELINE)

## dist-python: the Python distribution `libpathconfig` (imported as
## `pathconfig`; the name `pathconfig` on PyPI is another project's) into
## dist/: an sdist, and a wheel built from it that carries out/lib's library,
## out/bin/pathconfig (the command, run by the console script `pathconfig`) and
## docs/path-configuration.schema.json,
## repaired by auditwheel to a manylinux tag with libpcre2-8 and libidn2 vendored
## (scripts/dist-python.sh; its tools come from PyPI into out/dist-python)
dist-python: lib cli
	@bash scripts/dist-python.sh $(PYTHON) $(LIBDIR)/libpathconfig.so $(BINDIR)/pathconfig $(DIST) $(OUT)/dist-python

## dist-gem: the Ruby gem (`gem build`) into dist/pathconfig-VERSION.gem;
## it installs with `gem install --local` and finds the installed library
dist-gem:
	$(MAKE) -C bindings/ruby --no-print-directory gem DIST=$(DIST)

## dist-crate: the Rust crate (`cargo package --offline`, verified by
## building it against out/lib) into dist/pathconfig-VERSION.crate
dist-crate: lib
	$(MAKE) -C bindings/rust --no-print-directory package LIBDIR=$(LIBDIR) DIST=$(DIST)

## test-packaging: Tests/PackagingTests: the ABI guard fails on a removed or
## changed function or struct and passes additions; the version check names
## each file that disagrees; dist-python's wheel passes `auditwheel show`,
## installs into a fresh venv and runs outside the clone with
## PATHCONFIG_LIBRARY unset, its `pathconfig` command answers as out/bin/pathconfig
## does and is that binary but for what auditwheel patched, and its sdist builds; dist-crate's crate, unpacked
## outside the clone, builds a program through PATHCONFIG_LIB_DIR or
## pkg-config and fails naming both without them
test-packaging: dist-python dist-crate
	PATHCONFIG_DIST=$(DIST) PATHCONFIG_DIST_TOOLS=$(OUT)/dist-python/venv \
	    $(PYTHON) -m pytest -q -p no:cacheprovider Tests/PackagingTests

test: test-swift test-schema test-c test-python test-rust test-ruby test-readme check-version abi-check test-packaging fuzz-short test-dist

## soak: the C soak test alone, for SOAK_SECONDS (default 10): readers
## resolving through a loader's configuration while it is swapped and
## invalidated; results whole, memory flat, lookups per second printed
## (`make test-c` runs it for 3 s)
SOAK_SECONDS ?= 10
soak: lib
	$(MAKE) -C Tests/CTests --no-print-directory $(CURDIR)/Tests/CTests/build/test_soak \
	    ROOT=$(CURDIR) LIBDIR=$(LIBDIR) INCDIR=$(OUT)/include
	Tests/CTests/build/test_soak Tests/CTests/build/scratch $(SOAK_SECONDS)

## test-sanitize: the library built again with AddressSanitizer (its C parts
## with UndefinedBehaviorSanitizer too: Swift has no UBSan, and traps on
## overflow and out-of-bounds access in every build) and, separately, with
## ThreadSanitizer, each in .build-sanitize/; under each, the C suites of
## `make test-c` (the soak included; not valgrind, symbols or example) built
## by the toolchain's clang with the matching -fsanitize, and Swift tests: the
## core's and the command's under AddressSanitizer, the ones that use threads
## under ThreadSanitizer; under each too, the Python and Ruby suites, their
## C extensions built with it (below). The few reports that remain for want
## of seeing the Swift runtime, and the leaks of Foundation under the Swift
## tests, are suppressed one by one in Tests/Sanitizers/tsan.supp and
## lsan.supp, each entry saying why. Not part of `make test`;
## docs/fuzzing-and-sanitizers.md says how long it takes.
SANBUILD    := .build-sanitize
# The known leaks outside the library, for the Swift tests here and for make fuzz.
LSAN_SUPP   := $(CURDIR)/Tests/Sanitizers/lsan.supp
SWIFT_BIN   := $(dir $(realpath $(shell command -v $(SWIFT) 2>/dev/null)))
SAN_CC      ?= $(SWIFT_BIN)clang
SAN_RUNTIME := $(abspath $(SWIFT_BIN)../lib/swift/linux)
# Per sanitizer: the library's build flags, the C tests' flags and extras, the
# runtime options (fail on the first report; LeakSanitizer is on with ASan).
SAN_SWIFTFLAGS_address := -Xswiftc -static-stdlib -Xcc -fsanitize=undefined
# The Swift runtime as a shared library under ThreadSanitizer: only so does it
# tell ThreadSanitizer of its one-time initialisations (linked statically,
# each global one thread made and another read was reported as a race).
SAN_SWIFTFLAGS_thread  :=
SAN_CFLAGS_address     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -fuse-ld=lld
SAN_CFLAGS_thread      := -O1 -g -fsanitize=thread -fuse-ld=lld
SAN_LIBS_thread        := -L$(SAN_RUNTIME) -Wl,-rpath,$(SAN_RUNTIME) -ldispatch -lBlocksRuntime
SAN_UBSAN_ENV   := UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
SAN_ENV_address := ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 $(SAN_UBSAN_ENV)
SAN_ENV_thread  := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp
# The Swift tests. Under AddressSanitizer the core's suites, with the
# LeakSanitizer suppressions for Foundation that Tests/Sanitizers/lsan.supp
# explains, then the command's with leak detection off: on a usage error
# ArgumentParser exits from deep inside parsing, LeakSanitizer reports what it
# held, and its exit status (1) replaces the command's (2). Under
# ThreadSanitizer the suites that use threads.
SAN_SWIFT_TESTS_address := --filter 'PathConfigurationTests|PathConfigurationCTests'
SAN_SWIFT_ENV_address   := LSAN_OPTIONS=suppressions=$(LSAN_SUPP)
SAN_SWIFT_TESTS_thread  := --filter 'LoaderConcurrencyTests|LoaderHandlerTests|ResolutionTests|LongSubjectTests|RequestRuleTests|HostRuleOwnerTests|PlanAutomatonTests'

# $(call sanitized,SANITIZER): the library, the C suites and the Swift tests under it.
define sanitized
	$(SWIFT) build -j $(JOBS) -c release --product pathconfig --scratch-path $(SANBUILD)/$(1) --sanitize=$(1) \
	    $(SAN_SWIFTFLAGS_$(1)) \
	    -Xlinker -soname=libpathconfig.so.$(SOVERSION) \
	    -Xlinker --version-script=$(CURDIR)/packaging/pathconfig.map \
	    -Xlinker -z -Xlinker nodelete
	@ln -sf libpathconfig.so $(SANBUILD)/$(1)/release/libpathconfig.so.$(SOVERSION)
	$(SAN_ENV_$(1)) $(MAKE) -C Tests/CTests --no-print-directory sanitize \
	    ROOT=$(CURDIR) LIBDIR=$(CURDIR)/$(SANBUILD)/$(1)/release INCDIR=$(CURDIR)/include BUILD=$(CURDIR)/$(SANBUILD)/$(1)/c \
	    CONFORMANCE=$(CURDIR)/Tests/Fixtures/conformance CC=$(SAN_CC) CFLAGS="$(SAN_CFLAGS_$(1))" \
	    SANITIZER_LIBS="$(SAN_LIBS_$(1))"
	$(SWIFT) build -j $(JOBS) --build-tests --sanitize=$(1) --scratch-path $(SANBUILD)/$(1)-tests
	$(SAN_ENV_$(1)) $(SAN_SWIFT_ENV_$(1)) $(SWIFT) test -j $(JOBS) --skip-build --disable-xctest --sanitize=$(1) \
	    --scratch-path $(SANBUILD)/$(1)-tests $(SAN_SWIFT_TESTS_$(1))
endef

test-sanitize: test-sanitize-address test-sanitize-thread

# $(call sanitized_hosts,SANITIZER): the Python and Ruby suites against the
# library above, each binding's C extension built by the toolchain's clang
# with SAN_EXT_CFLAGS_SANITIZER. Each binding runs from a copy in
# .build-sanitize/SANITIZER/hosts (examples/ and include/ linked beside it,
# as in the clone), so that no instrumented extension is left where `make
# test` builds its own. The interpreters are not instrumented, so the
# runtime is preloaded (SAN_HOST_ENV_SANITIZER), and pytest captures
# sys.stdout and sys.stderr only, so that a report written to the process's
# stderr is seen. Left out under both: the tests that measure RSS, and the
# Python ones that check the clone or run pip and mypy.
#
# AddressSanitizer: Python allocates with malloc (so ASan sees its
# objects); leaks are not looked for (each interpreter keeps what it holds
# at exit); ASan sets up no signal stack of its own (at a thread's end it
# would unmap Ruby's as if it were). The Ruby extension's stack is not
# instrumented: Ruby raises by __builtin_longjmp (RUBY_LONGJMP in its
# config.h), which ASan cannot see, so the C frames a raise jumps over, as
# every C extension's are, stay poisoned and a later call on that stack
# reads as a use after scope (its heap accesses, and the library's stack and
# heap, are still checked).
#
# ThreadSanitizer: the Swift runtime, a shared library here, is preloaded
# with the runtime and the libdispatch it needs, so that it is there when
# ThreadSanitizer starts and tells it of its one-time initialisations (else
# each Swift global one thread made and another read is reported). No
# second's wait at exit (atexit_sleep_ms=0): while the process waited, a
# thread's end freed ffi's per-thread data (its pthread key's destructor)
# into the heap Ruby had already torn down (a crash in ruby_sized_xfree, 6
# runs in 12 of a loader scenario under load; none in 12 without the wait).
# The preforked worker is left out: ThreadSanitizer does not follow a fork
# of a process with threads.
SAN_EXT_CFLAGS_address   := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -fPIC
SAN_EXT_CFLAGS_thread    := -O1 -g -fsanitize=thread -fPIC
SAN_RUBY_CFLAGS_address  := -mllvm -asan-stack=0
SAN_HOST_ENV_address      = LD_PRELOAD=$(shell $(SAN_CC) -print-file-name=libclang_rt.asan-x86_64.so) \
                            ASAN_OPTIONS=detect_leaks=0:use_sigaltstack=0 $(SAN_UBSAN_ENV) PYTHONMALLOC=malloc
SAN_HOST_ENV_thread       = LD_PRELOAD=$(shell $(SAN_CC) -print-file-name=libclang_rt.tsan-x86_64.so):$(SAN_RUNTIME)/libdispatch.so:$(SAN_RUNTIME)/libBlocksRuntime.so:$(SAN_RUNTIME)/libswiftCore.so \
                            TSAN_OPTIONS=halt_on_error=1:atexit_sleep_ms=0:suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp
SAN_MINITEST_OPTS_address := -e /memory/
SAN_MINITEST_OPTS_thread  := -e '/memory|preforked/'
SAN_PYTEST_ARGS := --capture=sys --ignore=tests/test_memory.py --ignore=tests/test_install.py \
                   --ignore=tests/test_typing.py --ignore=tests/test_test_tools.py

define sanitized_hosts
	rm -rf $(SANBUILD)/$(1)/hosts && mkdir -p $(SANBUILD)/$(1)/hosts/bindings
	tar -C bindings -cf - --exclude=.venv --exclude=build --exclude='*.so' python ruby | tar -C $(SANBUILD)/$(1)/hosts/bindings -xf -
	ln -s $(CURDIR)/examples $(CURDIR)/include $(SANBUILD)/$(1)/hosts/
	$(MAKE) -C $(SANBUILD)/$(1)/hosts/bindings/python --no-print-directory suites PYTHON=$(PYTHON) \
	    LIBDIR=$(CURDIR)/$(SANBUILD)/$(1)/release CONFORMANCE=$(CURDIR)/Tests/Fixtures/conformance \
	    CC=$(SAN_CC) CFLAGS="$(SAN_EXT_CFLAGS_$(1))" TEST_ENV="$(SAN_HOST_ENV_$(1))" PYTEST_ARGS="$(SAN_PYTEST_ARGS)"
	$(MAKE) -C $(SANBUILD)/$(1)/hosts/bindings/ruby --no-print-directory test \
	    LIBDIR=$(CURDIR)/$(SANBUILD)/$(1)/release CONFORMANCE=$(CURDIR)/Tests/Fixtures/conformance \
	    EXT_MAKEFLAGS='CC=$(SAN_CC) CFLAGS="$(SAN_EXT_CFLAGS_$(1)) $(SAN_RUBY_CFLAGS_$(1))"' \
	    TEST_ENV="$(SAN_HOST_ENV_$(1))" TESTOPTS="$(SAN_MINITEST_OPTS_$(1))"
endef

test-sanitize-address: deps
	$(call sanitized,address)
	ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=1 $(SAN_UBSAN_ENV) $(SWIFT) test -j $(JOBS) --skip-build --disable-xctest --sanitize=address \
	    --scratch-path $(SANBUILD)/address-tests --filter pathconfigTests
	$(call sanitized_hosts,address)

test-sanitize-thread: deps
	$(call sanitized,thread)
	$(call sanitized_hosts,thread)

## bench: the benchmark of issues 12 and 29, built in release: libpathconfig
## (Swift API, C ABI, Python binding, Rust crate: each lookup alone and with
## what a host reads after it) beside the straightforward loops
## (NSRegularExpression, PCRE2-JIT), hyperscan and RE2::Set through their
## C/C++ APIs, and re, google-re2 and hyperscan from Python, on every corpus of
## bench/corpora; loading, memory per rule and threads. Prints the table,
## writes bench/results.md, bench/results.json and bench/scaling.png. Installs
## what it needs that `make test` does not (scripts/install-bench-deps.sh,
## and bench/.venv from PyPI, whose absence only empties the Python peers'
## cells). BENCH_ROUNDS=N for more rounds; BENCH_ARGS for any other option
## of bench/run.py (--help lists them).
BENCH_ROUNDS ?= 7
BENCH_ARGS   ?=
BENCH_VENV   := bench/.venv
bench: bench-deps lib
	$(SWIFT) build -j $(JOBS) -c release --product pathconfig-bench
	$(MAKE) -C bench/c --no-print-directory LIBDIR=$(LIBDIR)
	$(MAKE) -C bindings/python --no-print-directory speedups PYTHON=$(PYTHON)
	$(MAKE) -C bindings/rust --no-print-directory bench-worker LIBDIR=$(LIBDIR)
	$(MAKE) -C bindings/ruby --no-print-directory speedups
	@bash bench/python/venv.sh $(PYTHON) $(BENCH_VENV)
	$(PYTHON) bench/run.py --rounds $(BENCH_ROUNDS) \
	    --swift "$$($(SWIFT) build -c release --show-bin-path)/pathconfig-bench" \
	    --rust bindings/rust/target/release/examples/bench_worker \
	    --ruby "$$(ruby -rffi -e 'print RbConfig.ruby' 2>/dev/null)" \
	    --python "$$(if [ -x $(BENCH_VENV)/bin/python ]; then echo $(BENCH_VENV)/bin/python; else echo $(PYTHON); fi)" \
	    --lib $(LIBDIR)/libpathconfig.so --command "make bench BENCH_ROUNDS=$(BENCH_ROUNDS) $(BENCH_ARGS)" $(BENCH_ARGS)
	$(PYTHON) bench/plot.py bench/results.json bench/scaling.png

bench-deps: deps
	@bash scripts/install-bench-deps.sh

## bench-ablation: each speed layer switched off alone against every layer on
## (bench/ablation.py: one release build per layer in .build-ablate/NAME,
## instructions per lookup under callgrind, µs per URL on the C ABI and the
## Python binding side by side, 1 and 2 threads); prints the table
## (bench/README.md). ABLATION_ARGS: any option of bench/ablation.py.
ABLATION_ARGS ?=
bench-ablation: deps
	$(MAKE) -C bindings/python --no-print-directory speedups PYTHON=$(PYTHON)
	$(PYTHON) bench/ablation.py --python $(PYTHON) --jobs $(JOBS) $(ABLATION_ARGS)

## fuzz: every libFuzzer target in Fuzz/ built once (release, -sanitize=fuzzer
## and AddressSanitizer, in .build-fuzz), then each run for FUZZ_SECONDS with its
## seeds (Fuzz/<Target>/seeds) and dictionary (Fuzz/dict/*.dict), JOBS targets at
## a time (a libFuzzer run is one thread: each still has a core to itself, and
## each target's output is printed whole when it ends). A crash or a
## broken check stops the run and leaves the input in
## .build-fuzz/found/<target>/ (not artifacts/: SwiftPM owns that folder of its
## scratch path and empties it at every build); the corpus grows in .build-fuzz/corpus/<target>/.
## fuzz-short: 10 s each, part of `make test` (a smoke run: the 30-minute CI budget), from a build of its
## own without the optimiser (.build-fuzz-smoke, -Onone: 78 s to build the nine targets where the release
## build takes 186 s; it runs about a sixth as many inputs a second).
## fuzz-<target>: one target.
## The Swift suite replays every seed and every stored crash (Fuzz regressions).
## fuzz-prefilter-loop: the prefilter's seeded random loop, for toolchains without libFuzzer.
FUZZ_SECONDS ?= 60
FUZZ_SHORT_SECONDS ?= 10
FUZZBUILD    := .build-fuzz
# Swift flags added to the release build's (fuzz-short: -Onone).
FUZZ_OPT     :=
FUZZ_TARGETS := prefilter load resolve globs loader exchange lint port dialect
FUZZ_FLAGS   := -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIBFUZZER -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld \
                -Xcc -fsanitize=fuzzer-no-link,address
# Per target: its seed directory and the dictionaries it is given.
FUZZ_SEEDS_prefilter := Fuzz/PrefilterDifferential/seeds
FUZZ_DICTS_prefilter := regex
FUZZ_SEEDS_load      := Fuzz/Load/seeds
FUZZ_DICTS_load      := json options regex url
FUZZ_SEEDS_resolve   := Fuzz/Resolve/seeds
FUZZ_DICTS_resolve   := url
FUZZ_SEEDS_globs     := Fuzz/Globs/seeds
FUZZ_DICTS_globs     := url glob
FUZZ_SEEDS_loader    := Fuzz/Loader/seeds
FUZZ_DICTS_loader    := http json
FUZZ_SEEDS_exchange  := Fuzz/Exchange/seeds
FUZZ_DICTS_exchange  := http json
FUZZ_SEEDS_lint      := Fuzz/Lint/seeds
FUZZ_DICTS_lint      := json regex
FUZZ_SEEDS_port      := Fuzz/Port/seeds
FUZZ_DICTS_port      := json regex url
FUZZ_SEEDS_dialect   := Fuzz/Dialect/seeds
FUZZ_DICTS_dialect   := regex url

# Swift's own backtracer is off under ASan: after a trap it reads memory that
# ASan then reports as a second, unrelated crash.
define fuzz_run
fuzz-build-$(1): deps
	$(SWIFT) build -j $(JOBS) -c release --product pathconfig-fuzz-$(1) --scratch-path $(FUZZBUILD) $(FUZZ_FLAGS) $(FUZZ_OPT)

fuzz-$(1): $(if $(FUZZ_BUILT),,fuzz-build-$(1))
	@mkdir -p $(FUZZBUILD)/corpus/$(1) $(FUZZBUILD)/found/$(1)
	@cat $(patsubst %,Fuzz/dict/%.dict,$(FUZZ_DICTS_$(1))) > $(FUZZBUILD)/$(1).dict
	LSAN_OPTIONS=suppressions=$(LSAN_SUPP) SWIFT_BACKTRACE=enable=no \
	    $(FUZZBUILD)/release/pathconfig-fuzz-$(1) -max_total_time=$(FUZZ_SECONDS) -timeout=30 -print_final_stats=1 \
	    -dict=$(FUZZBUILD)/$(1).dict -artifact_prefix=$(FUZZBUILD)/found/$(1)/ $(FUZZBUILD)/corpus/$(1) $(FUZZ_SEEDS_$(1))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_run,$(t))))
.PHONY: $(addprefix fuzz-,$(FUZZ_TARGETS)) $(addprefix fuzz-build-,$(FUZZ_TARGETS))

fuzz-build: $(addprefix fuzz-build-,$(FUZZ_TARGETS))

# The targets `fuzz` runs (all of them unless told).
FUZZ_RUN          ?= $(FUZZ_TARGETS)

fuzz: fuzz-build
	@$(MAKE) --no-print-directory -j $(JOBS) --output-sync=target $(addprefix fuzz-,$(FUZZ_RUN)) FUZZ_BUILT=1 FUZZ_SECONDS=$(FUZZ_SECONDS)

fuzz-short:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SHORT_SECONDS) FUZZBUILD=.build-fuzz-smoke FUZZ_OPT="-Xswiftc -Onone"

fuzz-prefilter-loop: deps
	$(SWIFT) build -j $(JOBS) -c release --product pathconfig-fuzz-prefilter
	"$$($(SWIFT) build -c release --show-bin-path)/pathconfig-fuzz-prefilter" $(FUZZ_SECONDS)

clean:
	rm -rf .build $(LIBBUILD) $(FUZZBUILD) .build-fuzz-smoke $(SANBUILD) out Tests/CTests/build bench/c/build $(BENCH_VENV)
	$(MAKE) -C bindings/python --no-print-directory clean
