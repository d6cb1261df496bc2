/*
Copyright 2026 The kops addon operators Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package awsmodel

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
)

type s3Location struct {
	bucket, key string
}

func (l s3Location) arn(partition string) string {
	if l.key == "" {
		return fmt.Sprintf("arn:%s:s3:::%s/*", partition, l.bucket)
	}
	return fmt.Sprintf("arn:%s:s3:::%s/%s/*", partition, l.bucket, l.key)
}

// Placeholder buckets kops names for non-S3 state stores: no machine can read those, but the policy
// keeps its shape.
const (
	placeholderReadBucket  = "placeholder-read-bucket"
	placeholderWriteBucket = "placeholder-write-bucket"
)

func s3LocationOf(field, store, placeholder string) (s3Location, error) {
	u, err := url.Parse(store)
	if err != nil {
		return s3Location{}, fmt.Errorf("%s: %w", field, err)
	}
	key := strings.Trim(u.Path, "/")
	switch u.Scheme {
	case "s3":
		if u.Host == "" {
			return s3Location{}, fmt.Errorf("%s: %q names no bucket", field, store)
		}
		return s3Location{bucket: u.Host, key: key}, nil
	case "memfs", "file":
		return s3Location{bucket: placeholder, key: strings.Trim(u.Host+"/"+key, "/")}, nil
	}
	return s3Location{}, fmt.Errorf("%s: %q: a cluster's machines on AWS read their configuration from S3 (s3://bucket/path)", field, store)
}

// readStateStore finds what the control plane reads and where etcd-manager backs up (by default
// <configBase>/backups/etcd/<name>; kops's main and events when spec.etcdClusters is unset).
func (f *clusterFacts) readStateStore(c *kops.Cluster) error {
	configBase := strings.TrimSuffix(c.Spec.ConfigBase, "/")
	var reads []s3Location
	for _, field := range []struct{ name, url string }{{"spec.configBase", configBase}} {
		l, err := s3LocationOf(field.name, field.url, placeholderReadBucket)
		if err != nil {
			return err
		}
		reads = append(reads, l)
	}
	for _, name := range []string{"keyStore", "secretStore"} {
		store, err := kopsString(c.Unmodeled, "spec", name)
		if err != nil || store == "" {
			if err != nil {
				return err
			}
			continue
		}
		l, err := s3LocationOf("spec."+name, strings.TrimSuffix(store, "/"), placeholderReadBucket)
		if err != nil {
			return err
		}
		reads = append(reads, l)
	}
	f.stateStoreReads = roots(reads)

	etcd, err := kopsList(c.Unmodeled, "spec", "etcdClusters")
	if err != nil {
		return err
	}
	if etcd == nil {
		etcd = []map[string]interface{}{{"name": "main"}, {"name": "events"}}
	}
	seen := map[string]bool{}
	for i, e := range etcd {
		name, _ := e["name"].(string)
		store := configBase + "/backups/etcd/" + name
		if b, ok := e["backups"].(map[string]interface{}); ok {
			if s, ok := b["backupStore"].(string); ok && s != "" {
				store = strings.TrimSuffix(s, "/")
			}
		}
		if seen[store] {
			continue
		}
		seen[store] = true
		l, err := s3LocationOf(fmt.Sprintf("spec.etcdClusters[%d].backups.backupStore", i), store, placeholderWriteBucket)
		if err != nil {
			return err
		}
		f.etcdBackups = append(f.etcdBackups, l)
	}
	return nil
}

func roots(ls []s3Location) []s3Location {
	var out []s3Location
	for i, l := range ls {
		inside := false
		for j, other := range ls {
			if i != j && other.bucket == l.bucket && (other.key == "" || strings.HasPrefix(l.key+"/", other.key+"/")) && (l != other || j < i) {
				inside = true
			}
		}
		if !inside {
			out = append(out, l)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].arn("") < out[b].arn("") })
	return out
}
