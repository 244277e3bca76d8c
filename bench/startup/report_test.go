package main

import (
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// fakeResult is a run of targets whose every sample is the figures given.
func fakeResult(runs int, figures map[string][3]float64) *result {
	r := &result{runs: runs, idle: time.Second, series: map[string]*series{}}
	r.env.Env = benchkit.Env{Date: "2026-11-24 12:00 UTC", Commit: "abc1234", Go: "go1.26 linux/amd64", Kernel: "6.1", CPU: "EPYC", CPUs: 2}
	for _, name := range []string{wispName, floorName, floorSDKName} {
		f, ok := figures[name]
		if !ok {
			continue
		}
		r.names = append(r.names, name)
		s := &series{}
		for range runs {
			s.StartupMs = append(s.StartupMs, f[0])
			s.RSSMiB = append(s.RSSMiB, f[1])
			s.AnonMiB = append(s.AnonMiB, f[2])
		}
		r.series[name] = s
	}
	return r
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name    string
		figures map[string][3]float64
		want    []string
		notWant []string
	}{
		{
			name:    "with the SDK floor",
			figures: map[string][3]float64{wispName: {9, 24, 3}, floorName: {4.5, 10, 1.25}, floorSDKName: {7, 20, 2}},
			want: []string{
				"rounds of wisp, floor, floor-sdk in turn",
				"| floor+SDKs median |",
				"| Start → first 200 on `/api/status` | 9.0 ms | 9.0 ms | 4.5 ms | 4.5 ms | 7.0 ms | **2.00×** | ≤ 3× | pass |",
				"| Idle RSS (VmRSS after 1s) | 24.0 MiB | 24.0 MiB | 10.0 MiB | 10.0 MiB | 20.0 MiB | **2.40×** | ≤ 3× | pass |",
				"| Idle private memory (RssAnon after 1s) | 3.0 MiB | 3.0 MiB | 1.2 MiB | 1.2 MiB | 2.0 MiB | **2.40×** | ≤ 3× | pass |",
				"cost +2.5 ms of start-up, +10.0 MiB of idle RSS and +0.8 MiB of private memory (floor+SDKs − floor); Wisp's own work on top of that is +2.0 ms, +4.0 MiB and +1.0 MiB (wisp − floor+SDKs)",
				"Clean exit (status 0) on SIGTERM: wisp 3/3, floor 3/3, floor-sdk 3/3.",
			},
		},
		{
			name:    "without it, a missed target",
			figures: map[string][3]float64{wispName: {20, 12, 2}, floorName: {5, 10, 1}},
			want: []string{
				"rounds of wisp, floor in turn",
				"| Start → first 200 on `/api/status` | 20.0 ms | 20.0 ms | 5.0 ms | 5.0 ms | **4.00×** | ≤ 3× | **MISSED** |",
			},
			notWant: []string{"floor+SDKs", "model SDKs"},
		},
	} {
		md := fakeResult(3, tc.figures).markdown()
		if !strings.HasPrefix(md, "Measured 2026-11-24 12:00 UTC · commit abc1234 · ") {
			t.Errorf("%s: header line: %q", tc.name, strings.SplitN(md, "\n", 2)[0])
		}
		for _, w := range tc.want {
			if !strings.Contains(md, w) {
				t.Errorf("%s: markdown lacks %q:\n%s", tc.name, w, md)
			}
		}
		for _, w := range tc.notWant {
			if strings.Contains(md, w) {
				t.Errorf("%s: markdown has %q:\n%s", tc.name, w, md)
			}
		}
	}
}

func TestVerdictsNameUncleanExits(t *testing.T) {
	r := fakeResult(2, map[string][3]float64{wispName: {5, 12, 2}, floorName: {5, 10, 1}, floorSDKName: {6, 11, 1.5}})
	r.series[floorSDKName].Unclean = []string{"exit status 2"}
	got := strings.Join(r.verdicts(), "\n")
	if !strings.Contains(got, "UNCLEAN EXIT:  floor-sdk did not exit with status 0 after SIGTERM in 1 of 2 runs; first: exit status 2") ||
		strings.Count(got, "target met:") != 3 {
		t.Errorf("verdicts:\n%s", got)
	}
}

func TestParseMemory(t *testing.T) {
	for _, tc := range []struct {
		name, status string
		rss, anon    int64
		ok           bool
	}{
		{"both", "Name:\twisp\nVmRSS:\t   33892 kB\nRssAnon:\t    3140 kB\nRssFile:\t   30752 kB\n", 33892, 3140, true},
		{"no RssAnon", "VmRSS:\t 100 kB\n", 0, 0, false},
		{"another unit", "VmRSS:\t 100 MB\nRssAnon:\t 3 kB\n", 0, 0, false},
		{"not a number", "VmRSS:\t many kB\nRssAnon:\t 3 kB\n", 0, 0, false},
		{"empty", "", 0, 0, false},
	} {
		rss, anon, err := parseMemory(tc.status)
		if (err == nil) != tc.ok || rss != tc.rss || anon != tc.anon {
			t.Errorf("%s: parseMemory = %d, %d, %v; want %d, %d, ok=%v", tc.name, rss, anon, err, tc.rss, tc.anon, tc.ok)
		}
	}
}
