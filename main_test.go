package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestCommandLine(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"version"}, 0, "wisp dev", ""},
		{[]string{"help"}, 0, "wisp serve [flags]", ""},
		{[]string{"--help"}, 0, "wisp serve [flags]", ""},
		{[]string{"serve", "-h"}, 0, "Usage:", ""},
		{[]string{"dance"}, 2, "", `unknown command "dance"`},
		{[]string{"serve", "--bogus"}, 2, "", "flag provided but not defined"},
		{[]string{"serve", "--port", "70000"}, 2, "", "--port must be 0-65535"},
		{[]string{"serve", "--host", "0.0.0.0", "--state-dir", "STATE"}, 1, "", "without an API token"},
	}
	for _, tc := range cases {
		t.Setenv("WISP_API_TOKEN", "")
		var out, errOut bytes.Buffer
		args := tc.args
		for i, a := range args {
			if a == "STATE" {
				args[i] = t.TempDir()
			}
		}
		if code := run(args, &out, &errOut); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, errOut.String())
		}
		if !strings.Contains(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.err) {
			t.Errorf("%v: stdout %q stderr %q", tc.args, out.String(), errOut.String())
		}
	}
}
