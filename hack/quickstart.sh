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

# The README's quick start: build kops, create the cluster addons.k8s.local with the addon-operator
# feature flags in a local file:// state store, write its addons (kops update cluster --yes), and
# show what was stored. Safe to run again: the
# cluster is deleted from the store first.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "quickstart: building bin/kops and bin/channels (about 1-2 minutes the first time on 2 cores, seconds after)" >&2
start=$SECONDS
make build >/dev/null
echo "quickstart: built in $((SECONDS - start)) s" >&2
export KOPS_STATE_STORE="file://$PWD/.state"
export KOPS_FEATURE_FLAGS="ClusterAddons,UseAddonOperators"
kops=./bin/kops
name=addons.k8s.local

if [ -f .state/$name/config ]; then
  $kops delete cluster $name --yes >/dev/null
fi

set -x
$kops get featureflags
$kops create cluster $name --zones us-east-2a
$kops get --name $name
$kops get cluster $name -o yaml
$kops update cluster $name
$kops update cluster $name --yes
$kops update cluster $name --yes
cat .state/$name/addons/bootstrap-channel.yaml
find .state/$name -type f | sort
