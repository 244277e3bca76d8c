package wire

// AttachmentKind says what Wisp can do with an attachment's bytes: an image the
// model sees, a PDF or a text file it reads, or a file it only names.
type AttachmentKind string

// The attachment kinds.
const (
	AttachmentImage AttachmentKind = "image" // PNG, JPEG, GIF or WebP, decoded and within the pixel bound
	AttachmentPDF   AttachmentKind = "pdf"   // text per page
	AttachmentText  AttachmentKind = "text"  // UTF-8 text: plain, Markdown, code, JSON, CSV, SVG…
	AttachmentFile  AttachmentKind = "file"  // anything else: kept and downloadable, named to the model
)

// AttachmentKinds lists every kind.
var AttachmentKinds = []AttachmentKind{AttachmentImage, AttachmentPDF, AttachmentText, AttachmentFile}

// Attachment is a file the user attached (POST /api/attachments answers it; a
// message lists its own). Its bytes are GET /api/attachments/{id}; an image's
// thumbnail GET /api/attachments/{id}/thumbnail.
type Attachment struct {
	ID     string         `json:"id"`
	Name   string         `json:"name"` // cleaned: no path, no control or bidi characters
	MIME   string         `json:"mime"` // what the bytes are (sniffed), not what the client said
	Size   int64          `json:"size"`
	SHA256 string         `json:"sha256"` // hex; the bytes are stored once per hash
	Kind   AttachmentKind `json:"kind"`
	// Width and Height are an image's pixels; Pages a PDF's (0 until read).
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	Pages  int `json:"pages,omitempty"`
}

// AttachmentCreated answers POST /api/attachments (201).
type AttachmentCreated struct {
	Attachment Attachment `json:"attachment"`
}
