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

package validation

import (
	"fmt"
	"regexp"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

var (
	// awsZoneRE: a region's words hold no digit, so the region a zone names is never ambiguous.
	awsZoneRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z]{2,}(?:-[a-z]+)+-\d+)(?:-[a-z]+-\d+)?[a-z]$`) })
	gceZoneRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z]+-[a-z]+\d+)-[a-z][a-z0-9]*$`) })
	gceRegionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]+-[a-z]+\d+$`) })
)

// ZoneRegion returns zone's region on AWS and GCE, or a problem when zone is not one of that cloud's;
// on other clouds it returns neither.
func ZoneRegion(cloud, zone string) (region, problem string) {
	var re *regexp.Regexp
	switch cloud {
	case "aws":
		re, problem = awsZoneRE(), "is not an AWS availability zone (e.g. us-east-2a)"
	case "gce":
		re, problem = gceZoneRE(), "is not a GCE zone (e.g. us-central1-a)"
	default:
		return "", ""
	}
	m := re.FindStringSubmatch(zone)
	if m == nil {
		return "", problem
	}
	return m[1], ""
}

type placedIn struct {
	region string
	path   *field.Path
	value  string
}

// validateSubnetPlacement checks per cloud, as kops does: AWS subnets lie in one zone, GCE subnets are
// regional; where kops takes the cluster's region from its subnets, they must agree.
func validateSubnetPlacement(spec *kops.ClusterSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	var placed []placedIn
	for i, s := range spec.Subnets {
		p := path.Index(i)
		switch spec.CloudProvider {
		case "aws":
			if s.Zone == "" {
				if s.ID == "" {
					errs = append(errs, field.Required(p.Child("zone"),
						"an AWS subnet lies in one availability zone, e.g. us-east-2a (a shared subnet with an id may leave it out)"))
				}
				continue
			}
			region, problem := ZoneRegion("aws", s.Zone)
			if problem != "" {
				errs = append(errs, field.Invalid(p.Child("zone"), s.Zone, problem))
				continue
			}
			placed = append(placed, placedIn{region, p.Child("zone"), s.Zone})
		case "gce":
			if s.Zone != "" {
				errs = append(errs, field.Invalid(p.Child("zone"), s.Zone,
					"must not be set: GCE subnets are regional; set region instead"))
			}
			switch {
			case s.Region == "":
				errs = append(errs, field.Required(p.Child("region"), "GCE subnets are regional, e.g. us-central1"))
			case !gceRegionRE().MatchString(s.Region):
				errs = append(errs, field.Invalid(p.Child("region"), s.Region, "is not a GCE region (e.g. us-central1)"))
			default:
				placed = append(placed, placedIn{s.Region, p.Child("region"), s.Region})
			}
		case "azure", "digitalocean":
			if s.Region != "" {
				placed = append(placed, placedIn{s.Region, p.Child("region"), s.Region})
			}
		}
	}
	for _, other := range placed {
		if first := placed[0]; other.region != first.region {
			errs = append(errs, field.Invalid(other.path, other.value, fmt.Sprintf(
				"region %s differs from region %s of %s %q: a cluster lies in one region",
				other.region, first.region, first.path, first.value)))
		}
	}
	return errs
}
