package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// uploadTimeout bounds the upload of the VRM file to the API.
const uploadTimeout = 60 * time.Second

// startedURL is the API's origin from Wisp's log line
// `… msg="wisp started" url=http://127.0.0.1:PORT state=…`.
func startedURL(line string) (string, error) {
	_, rest, ok := strings.Cut(line, startedLine)
	if !ok {
		return "", fmt.Errorf("no %q in the log line %.120q", startedLine, line)
	}
	raw, _, _ := strings.Cut(rest, " ")
	raw = strings.Trim(raw, `"`)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("the log line's url %q is not an http origin", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// uploadVRM makes the file the character, as Settings → Avatar does:
// POST /api/avatar?name=<base> with the upload guard's header and the token.
func uploadVRM(ctx context.Context, origin, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(ctx, uploadTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost,
		origin+"/api/avatar?name="+url.QueryEscape(filepath.Base(path)), f)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "model/gltf-binary")
	req.Header.Set("X-Wisp-Upload", "1")
	req.Header.Set("Authorization", "Bearer "+apiToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("upload the VRM: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	if res.StatusCode != http.StatusCreated {
		return fmt.Errorf("upload the VRM: POST /api/avatar: %s: %s", res.Status, strings.TrimSpace(string(body)))
	}
	return nil
}
