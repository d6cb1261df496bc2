# Copyright 2026 The kops addon operators Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# Targets people run: build the binaries, run every test, check formatting and vet.
GO ?= go
BIN := bin

.PHONY: build images test test-unit test-images test-e2e test-apiserver test-node test-packages test-s3 verify lint quickstart cluster cluster-down

build:
	$(GO) build -o $(BIN)/kops ./cmd/kops
	$(GO) build -o $(BIN)/channels ./cmd/channels

# The operator images, one image tarball under _output/images/ for each operator of the registry
# (hack/operators prints "<channel package> <binary>" for each), built offline (no daemon, no
# registry): each name and tag are read from the stable channel's package manifest, so it is the image
# the channel deploys. Prints "<name:tag> <digest> <file>" for each. See docs/addon-operators.md for
# pushing them.
images:
	@operators=$$($(GO) run ./hack/operators) && printf '%s\n' "$$operators" | while read -r package binary; do \
		$(GO) -C hack/tools/images run . --source-dir "$(CURDIR)" --channel channels/stable \
			--package "$$package" --out _output/images "$$binary" || exit 1; \
	done

# Every test: formatting, vet and lint, the unit, golden and CLI tests, then the e2e tests against a real
# kube-apiserver (built from Go modules on first use, see hack/build-test-apiserver.sh).
test: verify test-unit test-e2e

# With the test packages and the test S3 server installed, tests that need them fail instead of
# skipping when they are missing.
test-unit: test-images test-packages test-s3
	@echo "==> make test [2/3] unit, golden, CLI, network-namespace and S3 tests (about 3 minutes on 2 cores)"
	KOPS_REQUIRE_TEST_PACKAGES=1 KOPS_REQUIRE_TEST_S3=1 $(GO) test -count=1 ./...

# The Debian packages of the node rules' tests (iptables, iproute2, shellcheck), installed if missing.
test-packages:
	./hack/install-test-packages.sh

# The image builder's own tests (its module is apart from the main one); they build a tiny package,
# not the operator, so they stay cheap.
test-images:
	@echo "==> the image builder's tests"
	cd hack/tools/images && $(GO) test -count=1 ./...

test-apiserver:
	./hack/build-test-apiserver.sh

# The S3 server the s3:// store and CLI tests run on (SeaweedFS, built once from its Go module into
# _output/testbin; the tests start it on 127.0.0.1). See docs/state-store.md.
test-s3:
	./hack/build-test-s3.sh

# The test cluster's binaries (kubelet, kube-controller-manager, kube-scheduler, kube-proxy,
# CoreDNS, the EC2 metadata mock, metrics-server), built from Go modules on first use like the API
# server's. Not for a user who is not root: the node tests skip then, and the build takes minutes.
test-node: test-apiserver
	@if [ "$$(id -u)" -eq 0 ]; then ./hack/build-test-node.sh; \
	else echo "not root: the node tests (tests/e2e/node) will skip; their binaries are not built"; fi

# The node tests (tests/e2e/node) need the cluster's packages (containerd, runc, CNI plugins) and
# binaries; they skip, with one line saying why, only where the machine cannot run containers.
# 30m rather than go test's 10m per package: on a fresh machine the node package also builds its
# images (the operator's among them) before its cluster starts.
test-e2e: test-apiserver test-node test-packages
	@echo "==> make test [3/3] e2e tests on a real kube-apiserver, then the node tests on the two-node cluster (about 20 minutes on 2 cores once the binaries are built)"
	cd tests/e2e && $(GO) test -count=1 -timeout 30m $$($(GO) list ./... | grep -v '/tests/e2e/node$$')
	@# Alone: lookups counted to 0 during rollouts and node loss must not compete for the 2 cores.
	cd tests/e2e && $(GO) test -count=1 -timeout 30m ./node/

verify:
	@echo "==> make test [1/3] gofmt, go vet and golangci-lint (about a minute; the first run builds golangci-lint and fills its cache: minutes)"
	@unformatted=$$(gofmt -l .); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd tests/e2e && $(GO) vet ./...
	cd hack/tools/images && $(GO) vet ./...
	@$(MAKE) --no-print-directory lint

# golangci-lint (the linters and formatters of .golangci.yml) on each module with Go code of its
# own. The binary is built from the version pinned in hack/tools/golangci-lint/go.mod into
# _output/bin (minutes the first time; go build leaves an up-to-date binary alone after that).
GOLANGCI_LINT := $(CURDIR)/_output/bin/golangci-lint
LINT_CONFIG := $(CURDIR)/.golangci.yml

lint:
	cd hack/tools/golangci-lint && GOWORK=off $(GO) build -o $(GOLANGCI_LINT) github.com/golangci/golangci-lint/v2/cmd/golangci-lint
	$(GOLANGCI_LINT) run -c $(LINT_CONFIG) ./...
	cd tests/e2e && $(GOLANGCI_LINT) run -c $(LINT_CONFIG) ./...
	cd hack/tools/images && $(GOLANGCI_LINT) run -c $(LINT_CONFIG) ./...

quickstart:
	./hack/quickstart.sh

# A cluster on this machine, offline, each node in its own network namespace (as root): the README's
# try-it flow runs against it. One node; NODES=2 (make cluster NODES=2) for more, as the node tests
# use. Its kubeconfig is _output/cluster/kubeconfig; see hack/cluster.sh.
cluster:
	NODES=$(or $(NODES),1) ./hack/cluster.sh up

cluster-down:
	./hack/cluster.sh down
