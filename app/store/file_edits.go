package store

// fileEditsMigration keeps what the agent's file actions need across restarts: the
// content hash of each file a conversation's model read (an edit of a file changed
// since is refused), and each edit's previous content (undo).
const fileEditsMigration = `CREATE TABLE file_reads (
		conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		path            TEXT    NOT NULL,
		sha256          TEXT    NOT NULL,
		read_at         INTEGER NOT NULL,
		PRIMARY KEY (conversation_id, path)
	) STRICT;
	CREATE TABLE file_edits (
		id              TEXT    PRIMARY KEY,
		run_id          TEXT    NOT NULL,
		call_id         TEXT    NOT NULL,
		conversation_id TEXT    REFERENCES conversations (id) ON DELETE SET NULL,
		path            TEXT    NOT NULL,
		existed         INTEGER NOT NULL CHECK (existed IN (0, 1)),
		before          BLOB,
		before_mode     INTEGER NOT NULL DEFAULT 0,
		after_sha256    TEXT    NOT NULL,
		created_at      INTEGER NOT NULL,
		undone_at       INTEGER,
		UNIQUE (run_id, call_id)
	) STRICT;
	CREATE INDEX file_edits_conversation ON file_edits (conversation_id);`
