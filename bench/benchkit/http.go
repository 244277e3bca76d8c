package benchkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// NewHTTPClient is the client a driver measures with: keep-alive, no proxy,
// no compression, so Wisp and its floors are read the same way.
func NewHTTPClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy: nil, MaxIdleConnsPerHost: 4, DisableCompression: true, IdleConnTimeout: time.Minute,
	}}
}

// WithToken returns c sending token as a Bearer token with every request.
func WithToken(c *http.Client, token string) *http.Client {
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	out := *c
	out.Transport = bearer{token: token, next: next}
	return &out
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// PostJSON sends in as a JSON request to url and decodes a 200 answer into
// out (answers up to 16 MiB: a captured terminal run is near 1 MiB of JSON); any
// other status is an error carrying the start of the body.
func PostJSON(ctx context.Context, c *http.Client, url string, in, out any) error {
	return PostJSONStatus(ctx, c, url, in, out, http.StatusOK)
}

// PostJSONStatus is PostJSON for a route that answers with status want (201 for a
// created record).
func PostJSONStatus(ctx context.Context, c *http.Client, url string, in, out any, want int) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("POST %s: status %d: %s", url, resp.StatusCode, bytes.TrimSpace(data))
	}
	return json.Unmarshal(data, out)
}
