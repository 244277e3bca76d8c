package terminal

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// signalSession sends sig to every process of session sid. Killing the process group
// is not enough: a shell with job control (`set -m`, an interactive bash) puts its jobs
// in groups of their own, still in the run's session. Only a process that started a
// session of its own (a daemon) escapes, as it means to.
func signalSession(sid int, sig syscall.Signal) {
	_ = syscall.Kill(-sid, sig) // the run's own group, also when /proc is unreadable
	for _, pid := range sessionMembers(sid) {
		_ = syscall.Kill(pid, sig)
	}
}

// sessionMembers lists the processes whose session id is sid, from /proc.
func sessionMembers(sid int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	var out []int
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == sid {
			continue
		}
		if s, ok := sessionOf(pid); ok && s == sid {
			out = append(out, pid)
		}
	}
	return out
}

// sessionOf reads the session id from /proc/<pid>/stat: the fourth field after the
// command name, which is in parentheses and may itself contain spaces.
func sessionOf(pid int) (int, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(data[i+1:]) // state ppid pgrp session …
	if len(fields) < 4 {
		return 0, false
	}
	sid, err := strconv.Atoi(string(fields[3]))
	return sid, err == nil
}
