package main

import (
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// fakeResult is a run of targets whose every sample is the figures given.
func fakeResult(runs int, figures map[string][2]float64) *result {
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
		}
		r.series[name] = s
	}
	return r
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name    string
		figures map[string][2]float64
		want    []string
		notWant []string
	}{
		{
			name:    "with the SDK floor",
			figures: map[string][2]float64{wispName: {9, 24}, floorName: {4.5, 10}, floorSDKName: {7, 20}},
			want: []string{
				"rounds of wisp, floor, floor-sdk in turn",
				"| floor+SDKs median |",
				"| Start → first 200 on `/api/status` | 9.0 ms | 9.0 ms | 4.5 ms | 4.5 ms | 7.0 ms | **2.00×** | ≤ 3× | pass |",
				"| Idle RSS (VmRSS after 1s) | 24.0 MiB | 24.0 MiB | 10.0 MiB | 10.0 MiB | 20.0 MiB | **2.40×** | ≤ 3× | pass |",
				"cost +2.5 ms of start-up and +10.0 MiB of idle RSS (floor+SDKs − floor); Wisp's own work on top of that is +2.0 ms and +4.0 MiB",
				"Clean exit (status 0) on SIGTERM: wisp 3/3, floor 3/3, floor-sdk 3/3.",
			},
		},
		{
			name:    "without it, a missed target",
			figures: map[string][2]float64{wispName: {20, 12}, floorName: {5, 10}},
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
	r := fakeResult(2, map[string][2]float64{wispName: {5, 12}, floorName: {5, 10}, floorSDKName: {6, 11}})
	r.series[floorSDKName].Unclean = []string{"exit status 2"}
	got := strings.Join(r.verdicts(), "\n")
	if !strings.Contains(got, "UNCLEAN EXIT:  floor-sdk did not exit with status 0 after SIGTERM in 1 of 2 runs; first: exit status 2") ||
		strings.Count(got, "target met:") != 2 {
		t.Errorf("verdicts:\n%s", got)
	}
}
