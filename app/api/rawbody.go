package api

import (
	"context"
	"mime"
	"net/http"
)

// A few routes take a file's bytes as their body instead of JSON: an attachment's
// upload and an import (a .zip). The guard lets them through only when no page of
// another site could have sent the request without asking first: such a page can
// post a form, text/plain or a typeless body without a CORS preflight, but it cannot
// add UploadHeader. The handler bounds the body itself.

// UploadHeader marks an upload a page made on purpose: with it, a cross-site form
// type is accepted, since no such form can send it without a preflight.
const UploadHeader = "X-Wisp-Upload"

// rawBodyKey marks a route whose body is a file's bytes, not JSON (withRawBody).
type rawBodyKey struct{}

// withRawBody lets a route take any body, bounded by its handler, instead of JSON
// within MaxBodyBytes.
func withRawBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), rawBodyKey{}, true)))
	})
}

func rawBody(r *http.Request) bool {
	raw, _ := r.Context().Value(rawBodyKey{}).(bool)
	return raw
}

// simpleTypes are the types a page of another site can send without a CORS
// preflight (a form, or fetch in no-cors mode).
var simpleTypes = map[string]bool{"text/plain": true, "multipart/form-data": true, "application/x-www-form-urlencoded": true}

// uploadTypeAllowed refuses a raw body a cross-site page could have sent without
// asking: a simple type, no type, or a type Go cannot parse (which a browser might
// send), unless the request carries UploadHeader.
func uploadTypeAllowed(r *http.Request) error {
	types := r.Header.Values("Content-Type")
	if len(types) > 1 {
		return Errorf(http.StatusUnsupportedMediaType, "an upload carries one Content-Type")
	}
	if r.Header.Get(UploadHeader) == "1" {
		return nil
	}
	if len(types) == 0 {
		return Errorf(http.StatusUnsupportedMediaType, "an upload without a Content-Type needs the header %s: 1", UploadHeader)
	}
	mt, _, err := mime.ParseMediaType(types[0])
	if err != nil || simpleTypes[mt] {
		return Errorf(http.StatusUnsupportedMediaType,
			"an upload of text/plain, form or multipart data needs the header %s: 1 (send the file's bytes as the body)", UploadHeader)
	}
	return nil
}
