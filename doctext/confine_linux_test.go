package doctext

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// envProbe makes the test binary the confined child of TestChildIsConfined
// (TestMain runs probeConfined).
const envProbe = "WISP_DOCTEXT_CONFINE_PROBE"

// The confined child opens no file and connects nowhere: the test binary runs
// again as a child, confines itself as the reader does, tries, and says.
func TestChildIsConfined(t *testing.T) {
	if abi, err := ll.LandlockGetABIVersion(); err != nil || abi < 4 {
		t.Fatalf("needs Landlock ABI 4 (network rules), this kernel has %d (%v)", abi, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envProbe+"="+ln.Addr().String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	if got := string(out); got != "open: denied\nconnect: denied\n" {
		t.Errorf("the confined child says %q", got)
	}
}

// probeConfined is the child of TestChildIsConfined: confined, it tries to open a
// file and to connect to addr, and prints what happened.
func probeConfined(addr string) {
	if err := confineChild(); err != nil {
		os.Stdout.WriteString("confine: " + err.Error() + "\n")
		os.Exit(1)
	}
	verdict := func(what string, err error) {
		s := "allowed"
		if err != nil {
			s = "denied"
		}
		os.Stdout.WriteString(what + ": " + s + "\n")
	}
	f, err := os.Open("/etc/passwd")
	if err == nil {
		f.Close()
	} else if !errors.Is(err, os.ErrPermission) {
		err = nil // another failure says nothing of the confinement
	}
	verdict("open", err)
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
	} else if !strings.Contains(err.Error(), "permission denied") {
		err = nil
	}
	verdict("connect", err)
	os.Exit(0)
}
