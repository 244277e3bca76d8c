package terminal

// Chunk is a piece of a run's output as it was sent.
type Chunk struct {
	Seq   int64  `json:"seq"`
	Event Kind   `json:"event"`
	Data  string `json:"data"`
}

// scrollback keeps the newest output of a run, at most limit bytes, for clients that
// subscribe late. It is guarded by its Run's mutex.
type scrollback struct {
	limit     int
	size      int
	chunks    []Chunk
	truncated bool // older output was dropped
}

func (s *scrollback) add(c Chunk) {
	if c.Data == "" {
		return
	}
	s.chunks = append(s.chunks, c)
	s.size += len(c.Data)
	for s.size > s.limit && len(s.chunks) > 0 {
		s.truncated = true
		excess := s.size - s.limit
		first := &s.chunks[0]
		if len(first.Data) <= excess {
			s.size -= len(first.Data)
			s.chunks[0] = Chunk{} // let the string go
			s.chunks = s.chunks[1:]
			continue
		}
		cut := runeStart(first.Data, excess)
		s.size -= cut
		first.Data = first.Data[cut:]
	}
}

// snapshot returns a copy of the chunks (the strings are shared: they never change).
func (s *scrollback) snapshot() []Chunk {
	return append([]Chunk{}, s.chunks...)
}

// capture keeps the first limit bytes of one stream for a captured run.
type capture struct {
	limit     int
	data      []byte
	truncated bool
}

func (c *capture) add(s string) {
	room := c.limit - len(c.data)
	if len(s) > room {
		c.truncated = true
		s = s[:runeEnd(s, room)]
	}
	c.data = append(c.data, s...)
}
