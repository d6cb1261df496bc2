# Targets people run: build the binaries, run every test, check formatting and vet.
GO ?= go
BIN := bin

.PHONY: build test test-unit test-e2e test-apiserver verify quickstart

build:
	$(GO) build -o $(BIN)/kops ./cmd/kops
	$(GO) build -o $(BIN)/channels ./cmd/channels

# Every test: formatting and vet, the unit, golden and CLI tests, then the e2e tests against a real
# kube-apiserver (built from Go modules on first use, see hack/build-test-apiserver.sh).
test: verify test-unit test-e2e

test-unit:
	$(GO) test -count=1 ./...

test-apiserver:
	./hack/build-test-apiserver.sh

test-e2e: test-apiserver
	cd tests/e2e && $(GO) test -count=1 ./...

verify:
	@unformatted=$$(gofmt -l .); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd tests/e2e && $(GO) vet ./...

quickstart:
	./hack/quickstart.sh
