package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// procStat is what this driver reads from one /proc/<pid>/stat.
type procStat struct {
	pid, ppid int
	comm      string
	ticks     int64  // utime + stime, in clock ticks
	start     uint64 // starttime: with pid, names a process even if its pid is reused
}

// key names a process across two reads.
type key struct {
	pid   int
	start uint64
}

func (s procStat) key() key { return key{s.pid, s.start} }

// parseStat reads a /proc/<pid>/stat line: "pid (comm) state ppid …", where
// comm may hold spaces and parentheses, so the fields are counted from the last ')'.
func parseStat(line string) (procStat, error) {
	open, end := strings.IndexByte(line, '('), strings.LastIndexByte(line, ')')
	if open < 1 || end < open {
		return procStat{}, fmt.Errorf("stat %.60q: no (comm)", line)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line[:open]))
	if err != nil {
		return procStat{}, fmt.Errorf("stat %.60q: pid: %w", line, err)
	}
	// After ")": state(3) ppid(4) … utime(14) stime(15) … starttime(22).
	f := strings.Fields(line[end+1:])
	if len(f) < 20 {
		return procStat{}, fmt.Errorf("stat %.60q: %d fields after comm", line, len(f))
	}
	ppid, err1 := strconv.Atoi(f[1])
	utime, err2 := strconv.ParseInt(f[11], 10, 64)
	stime, err3 := strconv.ParseInt(f[12], 10, 64)
	start, err4 := strconv.ParseUint(f[19], 10, 64)
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			return procStat{}, fmt.Errorf("stat %.60q: %w", line, err)
		}
	}
	return procStat{pid: pid, ppid: ppid, comm: line[open+1 : end], ticks: utime + stime, start: start}, nil
}

// allStats reads the stat of every process; ones that end while being read are skipped.
func allStats() ([]procStat, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []procStat
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue // gone
		}
		if s, err := parseStat(string(b)); err == nil {
			out = append(out, s)
		}
	}
	return out, nil
}

// tree is root and all its descendants among stats, root first.
func tree(root int, stats []procStat) []procStat {
	children := map[int][]procStat{}
	var out []procStat
	for _, s := range stats {
		if s.pid == root {
			out = append(out, s)
		} else {
			children[s.ppid] = append(children[s.ppid], s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i].pid]...)
	}
	return out
}

// snapshot is the processes of one tree at one moment.
type snapshot map[key]procStat

// treeSnapshot reads root's process tree now.
func treeSnapshot(root int) (snapshot, error) {
	stats, err := allStats()
	if err != nil {
		return nil, err
	}
	snap := snapshot{}
	for _, s := range tree(root, stats) {
		snap[s.key()] = s
	}
	if len(snap) == 0 {
		return nil, fmt.Errorf("process %d is gone", root)
	}
	return snap, nil
}

// usage is the CPU time a tree's processes used between two snapshots.
type usage struct {
	ticks  map[string]int64 // by process name (comm)
	total  int64
	exited int // processes of the first snapshot missing from the second (their last ticks are lost)
}

// cpuBetween sums each process's ticks from a to b; one that started in
// between counts all its ticks.
func cpuBetween(a, b snapshot) usage {
	u := usage{ticks: map[string]int64{}}
	for k, s := range b {
		d := s.ticks - a[k].ticks
		u.ticks[s.comm] += d
		u.total += d
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			u.exited++
		}
	}
	return u
}

// memory is the resident memory of a tree's processes, in KiB.
type memory struct {
	rss, pss           map[string]int64 // by process name
	rssTotal, pssTotal int64
	count              map[string]int
}

// treeMemory reads VmRSS (/proc/<pid>/status) and Pss (/proc/<pid>/smaps_rollup)
// of every process in snap.
func treeMemory(snap snapshot) (memory, error) {
	m := memory{rss: map[string]int64{}, pss: map[string]int64{}, count: map[string]int{}}
	for _, s := range snap {
		dir := filepath.Join("/proc", strconv.Itoa(s.pid))
		rss, err := kibField(filepath.Join(dir, "status"), "VmRSS:")
		if err != nil {
			return m, err
		}
		pss, err := kibField(filepath.Join(dir, "smaps_rollup"), "Pss:")
		if err != nil {
			return m, err
		}
		m.rss[s.comm] += rss
		m.pss[s.comm] += pss
		m.count[s.comm]++
		m.rssTotal += rss
		m.pssTotal += pss
	}
	return m, nil
}

// kibField reads the first "Name:   123 kB" line with the given name from a /proc file.
func kibField(path, name string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, name); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				break
			}
			return strconv.ParseInt(f[0], 10, 64)
		}
	}
	return 0, fmt.Errorf("%s: no %s line", path, name)
}

// clockTicks is the kernel's clock ticks per second (getconf CLK_TCK; 100, the
// value on every Linux port Go supports, when getconf cannot say).
func clockTicks() int64 {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return 100
}
