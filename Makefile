# The README's two commands: `make run` and `make test`. Each installs what it needs first.
.PHONY: run test deps build lint format

deps:
	@./scripts/install-deps.sh

build: deps
	swift build -c release --product tessera

run: build
	.build/release/tessera gallery $(ARGS)

lint:
	swift format lint --strict --recursive Package.swift Sources Tests

format:
	swift format --in-place --recursive Package.swift Sources Tests

test: deps
	./scripts/check-warnings.sh
	$(MAKE) lint
	./scripts/run-tests.sh
