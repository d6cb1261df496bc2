# Targets people run: build the binaries, run every test, check formatting and vet.
GO ?= go
BIN := bin

.PHONY: build test verify quickstart

build:
	$(GO) build -o $(BIN)/kops ./cmd/kops

test: verify
	$(GO) test -count=1 ./...

verify:
	@unformatted=$$(gofmt -l .); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

quickstart:
	./hack/quickstart.sh
