package shellgrant

import "strings"

// Programs that look harmless (they read, fetch or print) but have options
// that write files or run programs. A grant for one covers it without those.
// Programs whose job is writing (cp, mv, rm, tee, dd, tar, rsync…) have no
// such check: a grant for them covers the writes they do.

// checkCurl: curl writes files with -o/-O/-D/-c, --trace, --libcurl…; -K
// reads options from a file or standard input; -w '%output{f}' writes;
// --unix-socket reaches local daemons (the Docker socket is root); --engine
// loads code.
func checkCurl(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if shortOpt(a, "oODcKw") || longOpt(a, "output", "output-dir", "remote-name", "remote-name-all",
			"remote-header-name", "create-dirs", "dump-header", "cookie-jar", "config", "write-out", "trace",
			"trace-ascii", "trace-config", "libcurl", "stderr", "etag-save", "hsts", "alt-svc", "unix-socket",
			"abstract-unix-socket", "engine") {
			return "`curl " + shorten(a) + "` writes a file, reads options from one, or reaches a local socket or engine"
		}
	}
	return ""
}

// checkSort: -o writes a file; --compress-program runs one.
func checkSort(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if shortOpt(a, "o") || longOpt(a, "output", "compress-program") {
			return "`sort " + shorten(a) + "` writes a file or runs a program"
		}
	}
	return ""
}

// checkSplit: split and csplit write their pieces (that is what a grant for
// them covers); --filter runs a shell command on each.
func checkSplit(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if longOpt(a, "filter") {
			return "`split " + shorten(a) + "` runs a shell command for every piece"
		}
	}
	return ""
}

// checkUniq: uniq IN OUT writes OUT. -f, -s and -w take a number.
func checkUniq(args []string) string {
	if operands(args, "fsw") > 1 {
		return "`uniq IN OUT` writes OUT"
	}
	return ""
}

// checkXxd: xxd IN OUT writes OUT.
func checkXxd(args []string) string {
	if operands(args, "cglosn") > 1 || contains(args, "-r") {
		return "`xxd IN OUT` and `xxd -r` write files"
	}
	return ""
}

// operands counts the arguments that are not options nor the value of a
// short option in values.
func operands(args []string, values string) int {
	n := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return n + len(args) - i - 1
		case len(a) == 2 && a[0] == '-' && strings.IndexByte(values, a[1]) >= 0:
			i++
		case !strings.HasPrefix(a, "-") || a == "-":
			n++
		}
	}
	return n
}

// writeOptions are, for small programs, the options that write files or run
// programs.
var writeOptions = map[string]struct {
	short string
	long  []string
	what  string
}{
	"tree":    {"oR", []string{"output"}, "writes a file"},
	"iconv":   {"o", []string{"output"}, "writes a file"},
	"install": {"", []string{"strip-program"}, "runs a program"},
	"diff3":   {"", []string{"diff-program"}, "runs a program"},
	"sdiff":   {"o", []string{"diff-program", "output"}, "runs a program or writes a file"},
	"file":    {"C", []string{"compile"}, "writes a file"},
	"yq":      {"i", []string{"inplace"}, "writes a file"},
	"xattr":   {"wdc", nil, "changes a file's attributes (removing com.apple.quarantine lets it run unchecked)"},
	"bat":     {"", []string{"pager"}, "runs a program as its pager"},
	"batcat":  {"", []string{"pager"}, "runs a program as its pager"},
	"xmllint": {"", []string{"output"}, "writes a file"},
}

// checkApt: -o and -c set APT options, some of them commands to run
// (APT::Update::Pre-Invoke).
func checkApt(args []string) string {
	for _, a := range args {
		if shortOpt(a, "oc") || longOpt(a, "option", "config-file") {
			return "`apt " + shorten(a) + "` sets options that can name commands to run"
		}
	}
	return ""
}

// checkPlutil: plutil edits property lists in place with these verbs.
func checkPlutil(args []string) string {
	for _, a := range args {
		switch a {
		case "-convert", "-insert", "-replace", "-remove", "-extract", "-create", "-o":
			return "`plutil " + a + "` writes a file"
		}
	}
	return ""
}

// writeOptionRule is the rule for one program of writeOptions.
func writeOptionRule(name string) func(args []string) string {
	w := writeOptions[name]
	return func(args []string) string {
		for _, a := range args {
			if a == "--" {
				break
			}
			if (w.short != "" && shortOpt(a, w.short)) || longOpt(a, w.long...) {
				return "`" + name + " " + shorten(a) + "` " + w.what
			}
		}
		return ""
	}
}

// checkCrontab: anything but listing installs a crontab, which runs later.
func checkCrontab(args []string) string {
	if len(args) == 1 && args[0] == "-l" {
		return ""
	}
	return "`crontab` installs commands that run later"
}
