# The README's two commands: `make run` and `make test`. Each installs what it needs first.
.PHONY: run test deps build lint format fuzz docs install sanitize heap-stress hostile-soak \
	package package-test library-test

deps:
	@./scripts/install-deps.sh

# The Swift runtime and Foundation linked in: a launch resolves ~20 ms fewer symbols, and the
# installed binary needs no Swift toolchain beside it.
build: deps
	swift build -c release --product tessera --static-swift-stdlib

run: build
	.build/release/tessera gallery $(ARGS)

lint:
	swift format lint --strict --recursive Package.swift Sources Tests Fuzz Examples/*/Package.swift Examples/*/Sources
	./scripts/check-dependencies.py

format:
	swift format --in-place --recursive Package.swift Sources Tests Fuzz Examples/*/Package.swift Examples/*/Sources

# Each step says how long it took (scripts/step.sh; run-tests.sh says it before its closing
# "N passed, N failed" line, which stays the last).
test: deps
	./scripts/step.sh build-and-warnings ./scripts/check-warnings.sh
	./scripts/step.sh lint $(MAKE) lint
	./scripts/step.sh examples ./scripts/build-examples.sh
	./scripts/step.sh docs ./scripts/docs.sh
	FUZZ_SECONDS=8 ./scripts/step.sh fuzz ./scripts/fuzz.sh
	./scripts/step.sh sanitize-address ./scripts/sanitize.sh address
	./scripts/step.sh release ./scripts/check-release.sh
	./scripts/run-tests.sh

# The unit suites under AddressSanitizer (UBSan traps in the C targets), then
# ThreadSanitizer, each in its own build folder; any report fails. `make test` runs the first.
sanitize: deps
	./scripts/sanitize.sh $(SANITIZERS)

# The unit suites RUNS times (default 20) with glibc's heap checks; counts the aborts.
heap-stress: deps
	./scripts/heap-stress.sh $(RUNS)

# The gallery on generated decode bombs (a PNG of 130 zTXt chunks, a 10000x10000 progressive
# JPEG, a GIF whose screen lies), each alone and four of each together: peak RSS, time to
# settle, time q takes; fails over 256 MB a file, 512 MB the folder, 200 ms for q.
hostile-soak: deps
	swift build --product tessera
	./scripts/hostile-soak.sh .build/debug/tessera

# Every libFuzzer harness for FUZZ_SECONDS each (default 600); `make test` runs each briefly.
fuzz: deps
	FUZZ_SECONDS=$${FUZZ_SECONDS:-600} ./scripts/fuzz.sh

# The DocC documentation of the library targets, in docs-out/ (fails on any DocC warning);
# `make test` builds it too, so a catalog cannot go stale unnoticed.
docs: deps
	./scripts/docs.sh

# The binary, its man page and bash/zsh/fish completions under PREFIX (default /usr/local):
# `make install PREFIX=~/.local`. DESTDIR stages for a package.
PREFIX ?= /usr/local
install: deps
	./scripts/install.sh "$(PREFIX)"

# dist/tessera_<version>_amd64.deb and dist/tessera-<version>-linux-x86_64.tar.gz: the release
# binary of HEAD (built in .build-release, beside any debug build), its man page and completions;
# lintian checks the .deb.
package: deps
	./scripts/package.sh

# The .deb installed by apt in a fresh minimal Debian 12 root (debootstrap, cached in
# .build-package-test/) and tried there: --version, info on JPEG/HEIC/RAW, doctor, the gallery
# in tmux, man, bash completion, then purged. Needs root and the network; not in `make test`.
package-test: deps
	./scripts/package-test.sh

# The README's "Using Tessera as a library" tried from an empty package in a fresh copy of the
# same Debian 12 root, with the Swift toolchain (/opt/swift) bind-mounted and only the packages
# the README names installed: it depends on Tessera (HEAD) by path, builds and loads a JPEG.
# Needs root and the network; minutes (Tessera is compiled there); not in `make test`.
library-test:
	./scripts/library-test.sh
