package wire

// SecretStore says where Wisp keeps the secrets set in its settings (the model's API
// key, the API and terminal tokens) in this run: GET /api/config's secretStore.
type SecretStore struct {
	Where SecretsWhere `json:"where"`
	// Service is the keyring's service attribute of Wisp's items ("wisp:<config file>").
	Service string `json:"service"`
	// Reason says why the file keeps them: what the keyring answered, or that none did.
	Reason string `json:"reason"`
	// Unread lists the secrets the file says the keyring keeps that this run could
	// not read from it (the keyring did not answer, or no longer has them).
	Unread []string `json:"unread"`
}
