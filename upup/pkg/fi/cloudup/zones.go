package cloudup

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	// awsZoneRE is an AWS availability zone: its region (us-east-2, us-gov-west-1) then a letter,
	// or a local zone of that region (us-west-2-lax-1a).
	awsZoneRE = regexp.MustCompile(`^([a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d+)(?:-[a-z]+-\d+)?[a-z]$`)
	// gceZoneRE is a GCE zone: its region (us-central1) then a dash and a letter.
	gceZoneRE = regexp.MustCompile(`^([a-z]+-[a-z]+\d+)-[a-z]$`)
)

// regionOf returns the region of a zone on clouds where zones name their region, and "" on the
// others (OpenStack zones such as nova name no region).
func regionOf(cloud, zone string) (string, error) {
	var re *regexp.Regexp
	var what, example string
	switch cloud {
	case "aws":
		re, what, example = awsZoneRE, "an AWS availability zone", "us-east-2a"
	case "gce":
		re, what, example = gceZoneRE, "a GCE zone", "us-central1-a"
	default:
		return "", nil
	}
	m := re.FindStringSubmatch(zone)
	if m == nil {
		return "", fmt.Errorf("--zones: %q is not %s (e.g. %s)", zone, what, example)
	}
	return m[1], nil
}

// checkRegion requires every zone to lie in one region, as a cluster does, and returns it ("" on
// clouds whose zones name no region).
func checkRegion(cloud string, zones []string) (string, error) {
	byRegion := map[string][]string{}
	var regions []string
	for _, z := range zones {
		r, err := regionOf(cloud, z)
		if err != nil {
			return "", err
		}
		if _, seen := byRegion[r]; !seen {
			regions = append(regions, r)
		}
		byRegion[r] = append(byRegion[r], z)
	}
	if len(regions) > 1 {
		var parts []string
		for _, r := range regions {
			parts = append(parts, fmt.Sprintf("%s (%s)", r, strings.Join(byRegion[r], ",")))
		}
		return "", fmt.Errorf("--zones span regions %s: a cluster lies in one region", strings.Join(parts, " and "))
	}
	if len(regions) == 0 {
		return "", nil
	}
	return regions[0], nil
}
