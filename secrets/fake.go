package secrets

import (
	"context"
	"sync"
)

// Fake is a keyring in memory, for tests. Fail, when set, is asked first on every
// call; an error it returns is the call's answer (a keyring that is locked, gone or
// stuck).
type Fake struct {
	Fail func(op, name string) error // op: "get", "set" or "delete"
	// Done, when set, is told of each call that went through, once it took effect.
	Done func(op, name string)

	mu     sync.Mutex
	values map[string]string
	calls  []string
}

var _ Keyring = (*Fake)(nil)

// NewFake is a keyring holding values (name → value).
func NewFake(values map[string]string) *Fake {
	f := &Fake{values: map[string]string{}}
	for k, v := range values {
		f.values[k] = v
	}
	return f
}

func (f *Fake) Get(_ context.Context, name string) (string, error) {
	if err := f.record("get", name); err != nil {
		return "", err
	}
	f.mu.Lock()
	v, ok := f.values[name]
	f.mu.Unlock()
	f.done("get", name)
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (f *Fake) Set(_ context.Context, name, value string) error {
	if err := f.record("set", name); err != nil {
		return err
	}
	f.mu.Lock()
	f.values[name] = value
	f.mu.Unlock()
	f.done("set", name)
	return nil
}

func (f *Fake) Delete(_ context.Context, name string) error {
	if err := f.record("delete", name); err != nil {
		return err
	}
	f.mu.Lock()
	_, ok := f.values[name]
	delete(f.values, name)
	f.mu.Unlock()
	f.done("delete", name)
	if !ok {
		return ErrNotFound
	}
	return nil
}

func (f *Fake) done(op, name string) {
	if f.Done != nil {
		f.Done(op, name)
	}
}

// Values is what the keyring holds now.
func (f *Fake) Values() map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]string, len(f.values))
	for k, v := range f.values {
		out[k] = v
	}
	return out
}

// Calls lists the calls made so far, as "set model.apiKey".
func (f *Fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *Fake) record(op, name string) error {
	f.mu.Lock()
	f.calls = append(f.calls, op+" "+name)
	fail := f.Fail
	f.mu.Unlock()
	if fail != nil {
		return fail(op, name)
	}
	return nil
}
