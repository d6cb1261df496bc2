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

package operator

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
)

// The server refuses a CRD whose rules are too expensive: each rule's estimated worst case must be
// within the per-call limit, and all of them within the CRD's total. Bounds on the strings keep the
// estimates low; this test reports them and fails if one grows past 10% of the per-call limit (a
// maxLength dropped, say), well before the server would refuse the CRD. The server's own check is
// setup's apply of the CRD.
func TestCRDRuleCost(t *testing.T) {
	crd := kopsCRD(t)
	var internal apiextensions.JSONSchemaProps
	require.NoError(t, apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(crd.Spec.Versions[0].Schema.OpenAPIV3Schema, &internal, nil))
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())

	var total uint64
	var walk func(path string, s *apiextensions.JSONSchemaProps, root bool)
	walk = func(path string, s *apiextensions.JSONSchemaProps, root bool) {
		if len(s.XValidations) > 0 {
			structural, err := structuralschema.NewStructural(s)
			require.NoError(t, err, path)
			results, err := cel.Compile(structural, model.SchemaDeclType(structural, root), celconfig.PerCallLimit, envSet, cel.NewExpressionsEnvLoader())
			require.NoError(t, err, path)
			for i, r := range results {
				require.Nil(t, r.Error, "%s: %s", path, s.XValidations[i].Rule)
				// No rule is under a list, so each runs once per object; the cardinality Compile
				// reports for a schema compiled on its own (not from the root) does not apply.
				cost := r.MaxCost
				total += cost
				t.Logf("%-16s %-35s estimated cost %d (cardinality as compiled alone %d)", path, s.XValidations[i].Rule, cost, r.MaxCardinality)
				assert.LessOrEqual(t, cost, uint64(celconfig.PerCallLimit/10), "%s: %s", path, s.XValidations[i].Rule)
			}
		}
		for name, p := range s.Properties {
			walk(path+"."+name, &p, false)
		}
	}
	walk("", &internal, true)
	t.Logf("total estimated cost %d; the server's limits: %d per rule, %d per CRD", total, celconfig.PerCallLimit, crdvalidation.StaticEstimatedCRDCostLimit)
	assert.LessOrEqual(t, total, uint64(crdvalidation.StaticEstimatedCRDCostLimit/100))
}

func kopsCRD(t *testing.T) *apiextensionsv1.CustomResourceDefinition {
	crd, err := corednsmodel.CustomResourceDefinition()
	require.NoError(t, err, "the CRD kops generates")
	return crd
}
