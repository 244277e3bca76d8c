package config

import "strings"

// Public is c as the API shows it: every setting but the secrets, whose keys are
// left out (so a client that sends the object back cannot overwrite them), as is a
// section that held only secrets.
func Public(c Config) (map[string]any, error) {
	m, err := toMap(c)
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		if f.Secret {
			section, key, _ := strings.Cut(f.Path, ".")
			if sub, ok := m[section].(map[string]any); ok {
				delete(sub, key)
				if len(sub) == 0 {
					delete(m, section)
				}
			}
		}
	}
	return m, nil
}

// SecretsSet says for each secret setting whether it has a value.
func SecretsSet(c Config) map[string]bool {
	out := map[string]bool{}
	for _, f := range fields {
		if f.Secret {
			out[f.Path] = f.value(&c).String() != ""
		}
	}
	return out
}
