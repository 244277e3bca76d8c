package shellgrant

import (
	"regexp"
	"strings"
)

// awkDanger finds what lets an awk program run commands or load code:
// system(), pipes to or from commands (print | "cmd", "cmd" | getline, |&),
// and gawk's @load / @include.
var awkDanger = regexp.MustCompile(`system\s*\(|[^|]\|[^|]|^\|[^|]|[^|]\|$|\|&|@load|@include`)

// checkAwk reads awk's options and program text. Programs from files (-f),
// gawk extensions (-l, -i, -E) and unknown options ask.
func checkAwk(args []string) string {
	var program []string
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		value, next, reason := awkOption(a, args[i+1:])
		if reason != "" {
			return reason
		}
		if value != "" {
			program = append(program, value)
		}
		i += next
	}
	if len(program) == 0 {
		if i >= len(args) {
			return "`awk` without a program on the command line"
		}
		program = append(program, args[i])
	}
	for _, p := range program {
		if m := awkDanger.FindString(p); m != "" {
			return "the awk program `" + shorten(p) + "` " + awkWhy(m)
		}
	}
	return ""
}

// awkOption reads one option: the program text it gives (-e/--source), how
// many following arguments it takes, and why it asks.
func awkOption(a string, rest []string) (program string, next int, reason string) {
	valueOf := func(glued string) (string, int) {
		if glued != "" {
			return glued, 0
		}
		if len(rest) == 0 {
			return "", 0
		}
		return rest[0], 1
	}
	switch {
	case strings.HasPrefix(a, "-F"), strings.HasPrefix(a, "-v"):
		_, next = valueOf(a[2:])
		return "", next, ""
	case strings.HasPrefix(a, "--field-separator"), strings.HasPrefix(a, "--assign"):
		if strings.Contains(a, "=") {
			return "", 0, ""
		}
		_, next = valueOf("")
		return "", next, ""
	case strings.HasPrefix(a, "-e"):
		program, next = valueOf(a[2:])
		return program, next, ""
	case strings.HasPrefix(a, "--source"):
		if _, v, ok := strings.Cut(a, "="); ok {
			return v, 0, ""
		}
		program, next = valueOf("")
		return program, next, ""
	case awkFlags[a]:
		return "", 0, ""
	}
	return "", 0, "`awk " + shorten(a) + "`: program files (-f), extensions (-l, -i, -E) and options this package does not know are not covered"
}

// awkFlags are the options without a value that change nothing a grant cares
// about.
var awkFlags = map[string]bool{
	"-S": true, "--sandbox": true, "-P": true, "--posix": true, "-c": true, "--traditional": true,
	"-b": true, "--characters-as-bytes": true, "-r": true, "--re-interval": true,
	"-n": true, "--non-decimal-data": true, "-N": true, "--use-lc-numeric": true,
	"-V": true, "--version": true, "-h": true, "--help": true,
}

// awkWhy names what awkDanger matched.
func awkWhy(match string) string {
	switch {
	case strings.HasPrefix(match, "system"):
		return "runs commands (system())"
	case strings.HasPrefix(match, "@"):
		return "loads code (" + match + ")"
	}
	return "pipes to or from a command (print | \"cmd\", \"cmd\" | getline)"
}
