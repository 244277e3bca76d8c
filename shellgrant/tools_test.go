package shellgrant

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// TestToolsAgree runs the sed and awk cases of the tables through the real
// sed and awk of this machine, on one line of input, with PATH holding only
// logging stubs: when the program runs a command (sed's e, awk's system) or
// writes a file other than its input, the analysis must ask.
func TestToolsAgree(t *testing.T) {
	for _, tool := range []string{"sed", "awk"} {
		path, err := exec.LookPath(tool)
		if err != nil {
			t.Logf("no %s here", tool)
			continue
		}
		h := newHarness(t, []string{"rm", "ls", "x", "cat", "date", "sh"})
		for _, cases := range tables {
			for _, tt := range cases {
				args, ok := toolArgs(tt.command, tool)
				if !ok || !safeForBash(tt.command) {
					continue
				}
				t.Run(strings.ReplaceAll(tt.command, "/", "∕"), func(t *testing.T) {
					ran, wrote := h.runTool(t, path, args)
					a := check(tt.command)
					if slices.Contains(a.Bases, "sed -i") {
						wrote = nil // editing in place is what a grant for sed -i covers
					}
					if (len(ran) > 0 || len(wrote) > 0) && len(a.AlwaysAsk) == 0 {
						t.Errorf("%s ran %q and wrote %q, yet a grant for %q covers it", tool, ran, wrote, a.Bases)
					}
				})
			}
		}
	}
}

// toolArgs is the arguments of a command line that is one call of tool with
// plain-text arguments.
func toolArgs(command, tool string) ([]string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 || f.Stmts[0].Redirs != nil {
		return nil, false
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 {
		return nil, false
	}
	args, ok := staticArgs(ce.Args)
	if !ok || len(args) < 2 || args[0] != tool {
		return nil, false
	}
	return args[1:], true
}

// runTool runs the real program with args in a fresh folder holding the input
// files, and reports what its stubs logged and which files it added.
func (h *harness) runTool(t *testing.T, path string, args []string) (ran, wrote []string) {
	dir := t.TempDir()
	for _, f := range inputFiles {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(dir, ".log")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader("x\n")
	cmd.Env = []string{"PATH=" + h.stubs, "HOME=" + dir, "SG_LOG=" + log, "SG_CNT=" + filepath.Join(dir, ".count")}
	_ = cmd.Run() // a script the program rejects is fine
	if data, err := os.ReadFile(log); err == nil {
		ran = strings.Fields(string(data))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") {
			continue
		}
		if slices.Contains(inputFiles, n) {
			if data, err := os.ReadFile(filepath.Join(dir, n)); err == nil && string(data) == "x\n" {
				continue
			}
		}
		wrote = append(wrote, n)
	}
	return ran, wrote
}
