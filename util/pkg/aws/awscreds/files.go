package awscreds

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// section is one [section] of the shared files: keys lowercase, values unquoted.
type section map[string]string

// readINI reads an AWS shared file as AWS's SDKs do: "[name]" sections (the first word may be a
// type: "profile x", "sso-session x"), "key = value" (or "key: value") lines, "#" and ";" comments
// (inline ones after a space), indented lines as nested keys or continuations, which nothing read
// here uses but "services" sections' endpoints. Repeated sections merge, later keys win. A file that cannot be read is no file.
func readINI(name string) (map[string]section, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || name == "" {
			return nil, nil
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, nil // unreadable (a folder, say): skipped, as AWS's SDKs skip it
		}
		return nil, err
	}
	return parseINI(string(data)), nil
}

func parseINI(text string) map[string]section {
	out := map[string]section{}
	current, lastKey := "", ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, ";") {
			continue
		}
		if name, ok := sectionName(line); ok {
			current, lastKey = name, ""
			if out[current] == nil {
				out[current] = section{}
			}
			continue
		}
		if current == "" {
			continue // keys before any section are ignored
		}
		if line[0] == ' ' || line[0] == '\t' {
			// A nested key of the last key (when its value is empty), a continuation of its value,
			// or (under a key with a value) a key of its own.
			k, v, ok := splitKey(trimmed)
			switch {
			case ok && (lastKey == "" || out[current][lastKey] != ""):
				lastKey = strings.ToLower(k)
				out[current][lastKey] = unquote(strings.TrimSpace(cutComment(v)))
			case ok:
				// A nested key ("services" sections: "s3 =" then "  endpoint_url = ..."), kept as
				// "s3.endpoint_url"; its comments are part of its value, as for AWS's SDKs.
				out[current][lastKey+"."+strings.ToLower(k)] = v
			case lastKey != "" && out[current][lastKey] != "":
				out[current][lastKey] += "\n" + trimmed
			}
			continue
		}
		k, v, ok := splitKey(strings.TrimRight(cutComment(line), " \t"))
		if !ok {
			continue
		}
		lastKey = strings.ToLower(k)
		out[current][lastKey] = unquote(v)
	}
	return out
}

// sectionName reads "[ type name ] ; comment" as "type name" (one space), or "[name]" as "name".
func sectionName(line string) (string, bool) {
	s, _, _ := strings.Cut(line, "#")
	s, _, _ = strings.Cut(s, ";")
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") || len(s) < 2 {
		return "", false
	}
	s = strings.TrimSpace(s[1 : len(s)-1])
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		rest := strings.TrimLeft(s[i:], " \t")
		if rest == "" {
			return "", true
		}
		return s[:i] + " " + rest, true
	}
	return s, true
}

func cutComment(s string) string {
	for _, c := range []string{" #", " ;", "\t#", "\t;"} {
		s, _, _ = strings.Cut(s, c)
	}
	return s
}

func splitKey(s string) (string, string, bool) {
	eq, colon := strings.Index(s, "="), strings.Index(s, ":")
	sep := "="
	if eq < 0 || colon >= 0 && colon < eq {
		sep = ":"
	}
	k, v, ok := strings.Cut(s, sep)
	if !ok {
		return "", "", false
	}
	return strings.TrimSpace(k), strings.TrimSpace(v), true
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

// mergedKeys are the keys a credentials file's section overrides in the config file's section of
// the same profile (the static keys go as a pair, with the session token).
var mergedKeys = []string{
	"role_arn", "source_profile", "credential_source", "external_id", "mfa_serial", "role_session_name",
	"region", "endpoint_discovery_enabled", "credential_process", "web_identity_token_file",
	"s3_use_arn_region", "s3_disable_multiregion_access_points", "ec2_metadata_service_endpoint_mode",
	"ec2_metadata_service_endpoint", "ec2_metadata_v1_disabled", "use_dualstack_endpoint",
	"use_fips_endpoint", "defaults_mode", "retry_mode", "ca_bundle", "duration_seconds", "max_attempts",
	"sso_session", "sso_account_id", "sso_region", "sso_role_name", "sso_start_url",
	"auth_scheme_preference", "login_session",
}

// sharedFiles are the profiles of the config and credentials files, and the config file's other
// sections ("sso-session x", "services x").
type sharedFiles struct {
	profiles map[string]section
	other    map[string]section
	// partial names profiles whose section in one file has one static key without the other.
	partial map[string]bool
}

// loadShared reads both files as AWS's SDKs combine them: in the config file, profiles are
// "[profile x]" (and "[default]"), other names being ignored; in the credentials file, "[x]";
// the credentials file wins for the keys they share.
func loadShared(configFile, credentialsFile string) (*sharedFiles, error) {
	cfg, err := readINI(configFile)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", configFile, err)
	}
	creds, err := readINI(credentialsFile)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", credentialsFile, err)
	}
	f := &sharedFiles{profiles: map[string]section{}, other: map[string]section{}, partial: map[string]bool{}}
	for name, s := range cfg {
		switch {
		case strings.HasPrefix(name, "profile "):
		case strings.HasPrefix(name, "sso-session "), strings.HasPrefix(name, "services "):
			f.other[name] = s
		case strings.EqualFold(name, "default"):
			if _, prefixed := cfg["profile "+name]; !prefixed {
				f.profiles[name] = s
			}
		}
	}
	for name, s := range cfg {
		if p, ok := strings.CutPrefix(name, "profile "); ok {
			f.profiles[p] = s // "[profile default]" wins over "[default]"
		}
	}
	for name, s := range f.profiles {
		f.partial[name] = hasOne(s)
	}
	for name, s := range creds {
		if strings.HasPrefix(name, "profile ") {
			continue
		}
		dst, ok := f.profiles[name]
		f.partial[name] = hasOne(s)
		if !ok {
			f.profiles[name] = s
			continue
		}
		if s.has("aws_access_key_id") && s.has("aws_secret_access_key") {
			dst["aws_access_key_id"], dst["aws_secret_access_key"] = s["aws_access_key_id"], s["aws_secret_access_key"]
			if s.has("aws_session_token") {
				dst["aws_session_token"] = s["aws_session_token"]
			}
		}
		for _, k := range mergedKeys {
			if s.has(k) {
				dst[k] = s[k]
			}
		}
	}
	return f, nil
}

func (s section) has(k string) bool { _, ok := s[k]; return ok }

func hasOne(s section) bool { return s.has("aws_access_key_id") != s.has("aws_secret_access_key") }
