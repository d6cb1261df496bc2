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

// Package awsmodel builds the AWS objects of a cluster's machines: per instance group a launch
// template, per machine role an IAM role, instance profile and (where it grants something) a role
// policy built from what kops's components on the cluster need. It is used for clusters with
// cloudProvider aws only. Every name is kops's, so that these objects are the ones a cluster kops
// built already has (docs/terraform.md).
package awsmodel
