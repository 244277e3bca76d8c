package shellgrant

// What a grant covers, as Wisp's consent wrapper (app/approval) decides it from an
// Analysis: the tables state their cases in these terms.

// Covered reports whether grants cover the whole command line: nothing in it
// always asks, it runs at least one command, and every base is granted.
func (a Analysis) Covered(granted func(base string) bool) bool {
	if len(a.AlwaysAsk) > 0 || len(a.Bases) == 0 {
		return false
	}
	return len(a.Grantable(granted)) == 0
}

// Grantable is the bases not granted yet, in order: what "always allow" would
// grant. It is nil when something always asks, since no grant would help.
func (a Analysis) Grantable(granted func(base string) bool) []string {
	if len(a.AlwaysAsk) > 0 {
		return nil
	}
	var out []string
	for _, b := range a.Bases {
		if granted == nil || !granted(b) {
			out = append(out, b)
		}
	}
	return out
}
