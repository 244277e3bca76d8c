package config

// MaxReasons caps the pending restart reasons.
const MaxReasons = 50

// Reasons are the pending restart reasons: one per key (a setting's path, or any
// other source of a restart), in the order they first appeared. Past MaxReasons the
// oldest but the first are dropped, so the list keeps the first and the newest.
// Not safe for concurrent use.
type Reasons struct {
	keys []string
	text map[string]string
}

// Set adds or rewords the reason under key and reports whether the list changed.
func (r *Reasons) Set(key, text string) bool {
	if r.text == nil {
		r.text = map[string]string{}
	}
	old, ok := r.text[key]
	if ok {
		r.text[key] = text
		return old != text
	}
	r.text[key] = text
	r.keys = append(r.keys, key)
	if len(r.keys) > MaxReasons {
		drop := r.keys[1]
		delete(r.text, drop)
		r.keys = append(r.keys[:1], r.keys[2:]...)
	}
	return true
}

// Delete removes the reason under key and reports whether there was one.
func (r *Reasons) Delete(key string) bool {
	if _, ok := r.text[key]; !ok {
		return false
	}
	delete(r.text, key)
	for i, k := range r.keys {
		if k == key {
			r.keys = append(r.keys[:i], r.keys[i+1:]...)
			break
		}
	}
	return true
}

// List returns the reasons in order, without duplicate texts (two keys may say the
// same thing); never nil.
func (r *Reasons) List() []string {
	out := make([]string, 0, len(r.keys))
	seen := make(map[string]bool, len(r.keys))
	for _, k := range r.keys {
		if t := r.text[k]; !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
