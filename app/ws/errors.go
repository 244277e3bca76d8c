package ws

// HTTPError is a handshake refusal with the status code it should carry. The API's
// error adapter recognises it through its HTTPStatus method.
type HTTPError struct {
	Status int
	Msg    string
}

func (e *HTTPError) Error() string   { return e.Msg }
func (e *HTTPError) HTTPStatus() int { return e.Status }
