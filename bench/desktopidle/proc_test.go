package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// stat is a /proc/<pid>/stat line with the given fields; the others are zero.
func stat(pid, ppid int, comm string, utime, stime, start string) string {
	rest := []string{"S", strconv.Itoa(ppid), "0", "0", "0", "0", "0", "0", "0", "0", "0", utime, stime, "0", "0", "20", "0", "1", "0", start, "1000", "2000"}
	return strconv.Itoa(pid) + " (" + comm + ") " + strings.Join(rest, " ") + "\n"
}

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		line string
		want procStat
	}{
		{stat(42, 1, "wisp", "120", "30", "5000"), procStat{pid: 42, ppid: 1, comm: "wisp", ticks: 150, start: 5000}},
		// comm may hold spaces and parentheses.
		{stat(43, 42, "Web (Content) x", "7", "3", "5100"), procStat{pid: 43, ppid: 42, comm: "Web (Content) x", ticks: 10, start: 5100}},
	} {
		got, err := parseStat(tc.line)
		if err != nil {
			t.Fatalf("parseStat(%q): %v", tc.line, err)
		}
		if got != tc.want {
			t.Errorf("parseStat(%q) = %+v, want %+v", tc.line, got, tc.want)
		}
	}
	for _, bad := range []string{"", "42 wisp S 1", "x (wisp) S 1 0", "42 (wisp) S 1 0 0"} {
		if _, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
}

func TestParseStatOfThisProcess(t *testing.T) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skip("no /proc")
	}
	s, err := parseStat(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if s.pid != os.Getpid() || s.ppid != os.Getppid() {
		t.Errorf("pid %d ppid %d, want %d %d", s.pid, s.ppid, os.Getpid(), os.Getppid())
	}
}

func TestTreeAndCPU(t *testing.T) {
	stats := []procStat{
		{pid: 1, ppid: 0, comm: "init", ticks: 1000, start: 1},
		{pid: 10, ppid: 1, comm: "wisp", ticks: 100, start: 10},
		{pid: 11, ppid: 10, comm: "WebKitWebProces", ticks: 500, start: 11},
		{pid: 12, ppid: 10, comm: "WebKitNetworkPr", ticks: 20, start: 12},
		{pid: 13, ppid: 11, comm: "helper", ticks: 5, start: 13},
		{pid: 14, ppid: 1, comm: "other", ticks: 9, start: 14},
	}
	got := tree(10, stats)
	var pids []int
	for _, s := range got {
		pids = append(pids, s.pid)
	}
	if len(pids) != 4 || pids[0] != 10 {
		t.Fatalf("tree(10) = %v, want 10 first, then 11, 12, 13", pids)
	}
	if tree(99, stats) != nil {
		t.Error("tree of a missing root is not empty")
	}

	before := snapshot{}
	for _, s := range got {
		before[s.key()] = s
	}
	after := snapshot{}
	for _, s := range got {
		switch s.pid {
		case 11:
			s.ticks += 40
		case 13:
			continue // ended in between
		}
		after[s.key()] = s
	}
	// A process that started in between counts all its ticks.
	late := procStat{pid: 15, ppid: 10, comm: "WebKitWebProces", ticks: 7, start: 900}
	after[late.key()] = late
	// A reused pid is a new process.
	reused := procStat{pid: 12, ppid: 10, comm: "WebKitNetworkPr", ticks: 3, start: 901}
	delete(after, key{12, 12})
	after[reused.key()] = reused

	u := cpuBetween(before, after)
	if u.total != 40+7+3 || u.ticks["WebKitWebProces"] != 47 || u.ticks["WebKitNetworkPr"] != 3 || u.ticks["wisp"] != 0 {
		t.Errorf("cpuBetween = %+v", u)
	}
	if u.exited != 2 {
		t.Errorf("exited = %d, want 2 (the helper, and pid 12 before its reuse)", u.exited)
	}
}

func TestLineWatch(t *testing.T) {
	w := newLineWatch(readyLine)
	for _, chunk := range []string{"time=1 level=INFO msg=start\ntime=2 level=INFO ", readyLine[:10], readyLine[10:] + " userAgent=x", "\nmore\n"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-w.seen:
	default:
		t.Fatal("the ready line written in pieces was not seen")
	}
}

func TestShare(t *testing.T) {
	if got := share(150, 30, 100); got != 5 {
		t.Errorf("share(150 ticks, 30 s, 100 Hz) = %v%%, want 5%%", got)
	}
	if got := share(10, 0, 100); got != 0 {
		t.Errorf("share over 0 s = %v, want 0", got)
	}
}
