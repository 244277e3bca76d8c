package shellgrant

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// sedRule: a grant for sed covers filtering text; editing files in place is
// its own base, "sed -i", so a grant for sed never covers writing.
func sedRule(name string, words []*syntax.Word) (string, string) {
	args, ok := staticArgs(words)
	if !ok {
		return name, "an argument to `" + name + "` is not plain text: a $var or glob could carry options that run commands or write files"
	}
	inPlace, reason := checkSed(args)
	if inPlace {
		return name + " -i", reason
	}
	return name, reason
}

// checkSed reads sed's options and scripts. GNU sed runs commands with the e
// command and the s///e flag and writes files with w, W and s///w; script
// files (-f) are not read here. Options may follow file operands (GNU
// getopt permutes), so every argument is looked at.
func checkSed(args []string) (inPlace bool, reason string) {
	var scripts, operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		script, isScript, next, reason := sedOption(a, args[i+1:])
		if reason != "" {
			return inPlace, reason
		}
		inPlace = inPlace || sedInPlace(a)
		if isScript {
			scripts = append(scripts, script)
		}
		i += next
	}
	if len(scripts) == 0 {
		if len(operands) == 0 {
			return inPlace, "`sed` without a script on the command line"
		}
		scripts = operands[:1]
	}
	if reason := sedScript(strings.Join(scripts, "\n")); reason != "" {
		return inPlace, "the sed script `" + shorten(strings.Join(scripts, "; ")) + "` " + reason
	}
	return inPlace, ""
}

// sedInPlace reports whether an option is -i/--in-place (in a bundle, -ni).
func sedInPlace(a string) bool {
	if strings.HasPrefix(a, "--") {
		name, _, _ := strings.Cut(a[2:], "=")
		return name == "in-place"
	}
	for j := 1; j < len(a); j++ {
		switch a[j] {
		case 'i':
			return true
		case 'e', 'l':
			return false // the rest is their value
		}
	}
	return false
}

// sedOption reads one sed option: the script it gives, how many following
// arguments it takes, and why it asks.
func sedOption(a string, rest []string) (script string, isScript bool, next int, reason string) {
	if strings.HasPrefix(a, "--") {
		name, value, glued := strings.Cut(a[2:], "=")
		switch {
		case longOpt("--"+name, "expression"):
			if glued {
				return value, true, 0, ""
			}
			if len(rest) == 0 {
				return "", false, 0, "`sed --expression` without a script"
			}
			return rest[0], true, 1, ""
		case longOpt("--"+name, "line-length"):
			if glued {
				return "", false, 0, ""
			}
			return "", false, 1, ""
		case sedLongFlags[name]:
			return "", false, 0, ""
		}
		return "", false, 0, "`sed " + shorten(a) + "`: script files (--file) and options this package does not know are not covered"
	}
	for j := 1; j < len(a); j++ {
		switch c := a[j]; {
		case c == 'e' || c == 'l':
			value, n := a[j+1:], 0
			if value == "" {
				if len(rest) == 0 {
					return "", false, 0, "`sed " + a + "` without its value"
				}
				value, n = rest[0], 1
			}
			return value, c == 'e', n, ""
		case c == 'i':
			return "", false, 0, "" // in-place, the rest is a backup suffix
		case strings.IndexByte("nErszub", c) >= 0:
		default:
			return "", false, 0, "`sed " + shorten(a) + "`: script files (-f) and options this package does not know are not covered"
		}
	}
	return "", false, 0, ""
}

var sedLongFlags = map[string]bool{
	"quiet": true, "silent": true, "regexp-extended": true, "separate": true, "null-data": true,
	"unbuffered": true, "binary": true, "posix": true, "debug": true, "sandbox": true,
	"follow-symlinks": true, "in-place": true, "zero-terminated": true, "version": true, "help": true,
}
