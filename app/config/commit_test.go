package config

import (
	"errors"
	"reflect"
	"testing"
)

// recorder is a Consumer that records what it was given.
type recorder struct {
	refuse   error
	live     bool
	verified int
	commits  int
}

func (r *recorder) VerifyConfig(from, to Config) error { r.verified++; return r.refuse }
func (r *recorder) CommitConfig(from, to Config) bool  { r.commits++; return r.live }

func paths(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Path)
	}
	return out
}

func TestCommitterTwoPhases(t *testing.T) {
	model, server := &recorder{live: true}, &recorder{}
	var m Committer
	if err := m.Own("model", model, Section("model")...); err != nil {
		t.Fatal(err)
	}
	if err := m.Own("server", server, "server.port", "server.host"); err != nil {
		t.Fatal(err)
	}
	from := Default()
	to := from
	to.Model.Name, to.Model.Temperature, to.Server.Port = "m2", 0.1, 3000

	if err := m.Verify(from, to); err != nil {
		t.Fatal(err)
	}
	changes, waiting := m.Commit(from, to)
	if got := paths(changes); !reflect.DeepEqual(got, []string{"server.port", "model.name", "model.temperature"}) {
		t.Fatalf("changes %v", got)
	}
	if got := paths(waiting); !reflect.DeepEqual(got, []string{"server.port"}) {
		t.Fatalf("waiting %v", got)
	}
	if model.verified != 1 || model.commits != 1 || server.commits != 1 {
		t.Fatalf("each owner once: model %+v server %+v", model, server)
	}

	// A refusal stops the change before anyone commits it.
	server.refuse = errors.New("port taken")
	if err := m.Verify(from, to); err == nil || err.Error() != "port taken" {
		t.Fatalf("verify: %v", err)
	}
	// An owner whose settings did not change hears nothing.
	to2 := from
	to2.Model.Name = "m3"
	m.Commit(from, to2)
	if server.commits != 1 || model.commits != 2 {
		t.Fatalf("model %+v server %+v", model, server)
	}
}

func TestCommitterOwnership(t *testing.T) {
	var m Committer
	if err := m.Own("a", &recorder{}, "model.name"); err != nil {
		t.Fatal(err)
	}
	if err := m.Own("b", &recorder{}, "model.name"); err == nil {
		t.Fatal("two owners of one setting")
	}
	if err := m.Own("c", &recorder{}, "model.nope"); err == nil {
		t.Fatal("owner of a setting that does not exist")
	}
	if n := len(m.Unowned()); n != len(Fields())-1 {
		t.Fatalf("%d unowned", n)
	}
	if got := Section("ui"); !reflect.DeepEqual(got, []string{"ui.theme", "ui.notifications"}) {
		t.Fatalf("section ui %v", got)
	}
}
