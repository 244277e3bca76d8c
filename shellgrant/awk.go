package shellgrant

import (
	"regexp"
	"strings"
)

// awkDanger finds what lets an awk program run commands or load code: the
// word system (system(), however spaced), pipes to or from commands
// (print | "cmd", "cmd" | getline, |&), and any @ (gawk's @load, @include and
// indirect calls such as f = "system"; @f("cmd")).
var awkDanger = regexp.MustCompile(`\bsystem\b|[^|]\|[^|]|^\|[^|]|[^|]\|$|\|&|@`)

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
	p := strings.Join(program, "\n")
	// awk joins lines at a backslash-newline: system\⏎( is system(.
	joined := strings.ReplaceAll(p, "\\\n", "")
	if m := awkDanger.FindString(joined); m != "" {
		return "the awk program `" + shorten(p) + "` " + awkWhy(m)
	}
	if awkWrites(joined) {
		return "the awk program `" + shorten(p) + "` writes a file (print > \"file\")"
	}
	return ""
}

// awkWrites reports whether an awk program redirects print or printf to a
// file: a > or >> outside strings, regexes, comments and parentheses, in a
// statement that prints. Comparisons in parentheses or in patterns are not
// writes. Where a / could start a regex or divide (after a ")" or "++"), this
// reading could be wrong, so any > after the first { that follows a print
// counts as a write.
func awkWrites(p string) bool {
	depth, prints, operand, unsure := 0, false, false, false
	var last byte // the last character before this one that is not a blank
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == ' ' || c == '\t' {
			continue
		}
		prev := last
		last = c
		switch {
		case c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
			last = '\n'
			continue
		case c == '"':
			i = skipAwkString(p, i)
			operand = true
			continue
		case c == '/' && !operand:
			i = skipAwkRegex(p, i)
			operand = true
			continue
		case c == '/' && (prev == ')' || prev == '+' || prev == '-'):
			unsure = true
		case c == '(':
			depth++
		case c == ')':
			depth = max(depth-1, 0)
		case c == '{' || c == '}':
			depth, prints = 0, false
		case (c == ';' || c == '\n') && depth == 0:
			prints = false
		case c == '>' && depth == 0 && prints:
			return true
		case isWordByte(c):
			j := i
			for j < len(p) && isWordByte(p[j]) {
				j++
			}
			w := p[i:j]
			prints = prints || w == "print" || w == "printf"
			operand = !awkKeywords[w]
			i = j - 1
			continue
		}
		wasOperand := operand
		operand = c == ')' || c == ']'
		if wasOperand && (c == '+' || c == '-') && i+1 < len(p) && p[i+1] == c {
			operand = true // a++ and a-- stay operands
			i++
		}
	}
	return unsure && printsThenGreater(p)
}

// awkKeywords are the words after which a / starts a regex.
var awkKeywords = map[string]bool{"print": true, "printf": true, "return": true, "in": true,
	"case": true, "do": true, "else": true, "getline": true, "if": true, "while": true, "for": true}

// printsThenGreater: a > anywhere after the first { in a program that prints.
func printsThenGreater(p string) bool {
	i := strings.IndexByte(p, '{')
	return i >= 0 && strings.Contains(p[i:], ">") && awkPrint.MatchString(p)
}

var awkPrint = regexp.MustCompile(`\bprintf?\b`)

// skipAwkString returns the index of the quote closing the string at i.
func skipAwkString(p string, i int) int {
	for i++; i < len(p) && p[i] != '"' && p[i] != '\n'; i++ {
		if p[i] == '\\' {
			i++
		}
	}
	return i
}

// skipAwkRegex returns the index of the slash closing the regex at i; a slash
// in a bracket expression does not close it.
func skipAwkRegex(p string, i int) int {
	bracket := false
	for i++; i < len(p) && p[i] != '\n'; i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case c == '/' && !bracket:
			return i
		}
	}
	return i
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
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
		return "loads or calls code by name (@load, @include, @f())"
	}
	return "pipes to or from a command (print | \"cmd\", \"cmd\" | getline)"
}
