package shellgrant

import (
	"regexp"
	"strings"
)

// Checks of the read-only subcommands of package and build tools (runners.go).

// npmRead: npm ls, outdated and view run nothing; a config file named on the
// command line could (onload-script in older npm).
func npmRead(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(a, "=")
		if name != "--global" && longOpt(a, "onload-script", "userconfig", "globalconfig") {
			return "`npm … " + shorten(a) + "` loads settings that can run code"
		}
	}
	return ""
}

// pipRead: --python runs pip with another interpreter; --log writes a file.
// pip accepts any unambiguous abbreviation of a long option.
func pipRead(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if longOpt(a, "python", "log", "log-file") {
			return "`pip … " + shorten(a) + "` runs another interpreter or writes a file"
		}
	}
	return ""
}

// goEnvName is a variable go env prints.
var goEnvName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// goEnv: printing only; go env -w and -u change settings for every later go
// run (GOFLAGS=-toolexec=…).
func goEnv(args []string) string {
	for _, a := range args {
		switch strings.TrimPrefix(a, "-") {
		case "-json", "-changed", "json", "changed":
			continue
		}
		if !goEnvName.MatchString(a) {
			return "`go env " + shorten(a) + "`: only printing is covered (go env -w/-u change every later go run)"
		}
	}
	return ""
}

// goListFlags are the flags of go list that only choose what to print; those
// in goListValues take a value. Others (-export, -compiled, -toolexec…)
// build packages or run programs.
var (
	goListFlags = map[string]bool{"e": true, "json": true, "m": true, "u": true, "versions": true,
		"retracted": true, "deps": true, "test": true, "find": true}
	goListValues = map[string]bool{"f": true, "mod": true, "modfile": true, "tags": true}
)

func goList(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return ""
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, glued := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		switch {
		case goListValues[name]:
			if !glued {
				i++
			}
		case goListFlags[name]:
		default:
			return "`go list " + shorten(a) + "`: only flags that choose what to print are covered"
		}
	}
	return ""
}

// kubectlRead: --kubeconfig names a file whose exec entries run programs.
func kubectlRead(args []string) string {
	for _, a := range args {
		if a == "--kubeconfig" || strings.HasPrefix(a, "--kubeconfig=") {
			return "`kubectl " + shorten(a) + "` reads a kubeconfig, whose credential plugins are programs"
		}
	}
	return ""
}
