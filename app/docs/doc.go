// Package docs reads the text of the documents users attach (PDFs, text files):
// text per page, extracted once per blob with bounded time and memory, split into
// chunks indexed for search, and the excerpts of a document that match a question
// (docs/attachments.md, "Documents"). PDFs are read by doctext in a bounded child
// process; the text is kept in the store. It knows the store, doctext and internal/,
// nothing of the chat that uses it.
package docs

// Document is an attachment's text by page. A text file is one page.
type Document struct {
	SHA256 string
	Pages  []Page
	// Truncated: the file had more pages or text than Wisp reads; Pages are the first.
	Truncated bool
	Tokens    int // of all the pages' text, as the counter that made it counted
}

// Page is one page's text (N counts from 1).
type Page struct {
	N    int
	Text string
}

// Chunk is a piece of a document's text within one page, the unit of search.
type Chunk struct {
	SHA256 string
	Page   int
	Text   string
}
