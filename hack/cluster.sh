#!/usr/bin/env bash
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

# make cluster / make cluster-down: a Kubernetes cluster on this machine, offline, that runs what
# kops renders: one node, or NODES of them (make cluster NODES=2; tests/e2e/nodecluster is the
# implementation; the node tests start their own two-node clusters with it).
#   hack/cluster.sh up     install the packages and build the binaries when missing, build the
#                          images, start the cluster and wait for its nodes to be Ready
#   hack/cluster.sh down   stop every process it started, remove its namespaces, veth and cgroups
#   hack/cluster.sh status
# Needs root (namespaces, cgroups, iptables inside the node's network namespace; nothing on the
# host's). The cluster's files are in _output/cluster (or KOPS_NODE_STATE_DIR); its kubeconfig's
# context is named after the kops cluster, addons.k8s.local (or KOPS_CLUSTER_NAME).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE_DIR="${KOPS_NODE_STATE_DIR:-${REPO_ROOT}/_output/cluster}"
NAME="${KOPS_CLUSTER_NAME:-addons.k8s.local}"
NODES="${NODES:-1}"
export GOWORK=off

node_cluster() {
  go -C "${REPO_ROOT}/tests/e2e" run ./nodecluster/cmd/node-cluster "$@"
}

if [ "$(id -u)" -ne 0 ]; then
  echo "hack/cluster.sh: the cluster needs root (network and mount namespaces, cgroups); run it as root" >&2
  exit 1
fi

case "${1:-}" in
  up)
    "${REPO_ROOT}/hack/install-test-packages.sh"
    "${REPO_ROOT}/hack/build-test-node.sh"
    node_cluster up --state-dir "${STATE_DIR}" --name "${NAME}" --nodes "${NODES}"
    ;;
  down)
    node_cluster down --state-dir "${STATE_DIR}"
    ;;
  status)
    node_cluster status --state-dir "${STATE_DIR}"
    ;;
  *)
    echo "usage: $0 up|down|status" >&2
    exit 2
    ;;
esac
