package store

import (
	"context"
	"fmt"
)

// migrations are applied in order; migration i brings the schema to user_version i+1.
// Never edit a released migration: add a new one.
var migrations = []string{
	// 1: the /ws envelope journal, so replay and event numbering survive a restart.
	`CREATE TABLE stream_events (
		id   INTEGER PRIMARY KEY,
		type TEXT    NOT NULL,
		ts   INTEGER NOT NULL,
		data BLOB    NOT NULL
	) STRICT;`,

	// 2: chat: conversations and their messages, runs with their numbered event logs
	// (SSE resume), and the display messages the UI shows (tool calls with status).
	`CREATE TABLE conversations (
		id         TEXT    PRIMARY KEY,
		title      TEXT    NOT NULL,
		room_id    TEXT    NOT NULL,
		metadata   TEXT,
		created_at INTEGER NOT NULL,
		updated_at INTEGER NOT NULL
	) STRICT;
	CREATE INDEX conversations_updated_at ON conversations (updated_at);

	CREATE TABLE messages (
		n                 INTEGER PRIMARY KEY,
		id                TEXT    NOT NULL UNIQUE,
		conversation_id   TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		role              TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
		text              TEXT    NOT NULL,
		source            TEXT,
		run_id            TEXT,
		segments          TEXT,
		callback_history  TEXT,
		client_message_id TEXT,
		metadata          TEXT,
		created_at        INTEGER NOT NULL
	) STRICT;
	CREATE INDEX messages_conversation_n ON messages (conversation_id, n);

	CREATE TABLE runs (
		id              TEXT    PRIMARY KEY,
		conversation_id TEXT    REFERENCES conversations (id) ON DELETE CASCADE,
		user_message_id TEXT,
		status          TEXT    NOT NULL CHECK (status IN ('active', 'paused', 'ended', 'failed', 'interrupted')),
		error           TEXT,
		started_at      INTEGER NOT NULL,
		ended_at        INTEGER
	) STRICT;
	CREATE INDEX runs_conversation_started_at ON runs (conversation_id, started_at);
	CREATE INDEX runs_live ON runs (started_at, id) WHERE status IN ('active', 'paused');

	CREATE TABLE run_events (
		run_id TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		seq    INTEGER NOT NULL,
		type   TEXT    NOT NULL,
		data   TEXT    NOT NULL,
		ts     INTEGER NOT NULL,
		PRIMARY KEY (run_id, seq)
	) STRICT, WITHOUT ROWID;

	CREATE TABLE display_messages (
		n               INTEGER PRIMARY KEY,
		id              TEXT    NOT NULL UNIQUE,
		conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		run_id          TEXT,
		message_type    TEXT    NOT NULL CHECK (message_type IN ('user', 'assistant', 'tool', 'system')),
		content_type    TEXT    NOT NULL CHECK (content_type IN ('text', 'thinking', 'tool_call', 'tool_result', 'error', 'notification')),
		content         TEXT    NOT NULL,
		status          TEXT    CHECK (status IS NULL OR status IN ('pending', 'executing', 'completed', 'failed', 'interrupted', 'cancelled')),
		tool_call_id    TEXT,
		metadata        TEXT,
		created_at      INTEGER NOT NULL,
		updated_at      INTEGER NOT NULL
	) STRICT;
	CREATE INDEX display_messages_tool_call_id ON display_messages (tool_call_id) WHERE tool_call_id IS NOT NULL;
	CREATE INDEX display_messages_conversation_n ON display_messages (conversation_id, n);`,

	// 3: proactive messages: unread marks, reminders (a deleted conversation leaves its
	// reminders to be routed elsewhere), and the lookups the autonomy limits make.
	`ALTER TABLE conversations ADD COLUMN unread INTEGER NOT NULL DEFAULT 0 CHECK (unread IN (0, 1));

	CREATE TABLE reminders (
		id              TEXT    PRIMARY KEY,
		conversation_id TEXT    REFERENCES conversations (id) ON DELETE SET NULL,
		text            TEXT    NOT NULL,
		at              INTEGER NOT NULL,
		created_at      INTEGER NOT NULL,
		delivered_at    INTEGER,
		late            INTEGER NOT NULL DEFAULT 0 CHECK (late IN (0, 1)),
		message_id      TEXT
	) STRICT;
	CREATE INDEX reminders_pending ON reminders (at, id) WHERE delivered_at IS NULL;
	CREATE INDEX reminders_delivered ON reminders (delivered_at) WHERE delivered_at IS NOT NULL;
	CREATE INDEX reminders_conversation ON reminders (conversation_id);

	CREATE INDEX messages_role_created_at ON messages (role, created_at);
	CREATE INDEX messages_source_created_at ON messages (source, created_at) WHERE source IS NOT NULL;`,

	// 4: run logs are compacted once their run has ended; this marks the ones that are
	// still to do (every run that ended before, and each new one until it is done).
	`ALTER TABLE runs ADD COLUMN compacted INTEGER NOT NULL DEFAULT 0 CHECK (compacted IN (0, 1));
	CREATE INDEX runs_to_compact ON runs (ended_at, id) WHERE compacted = 0 AND status NOT IN ('active', 'paused');`,

	// 5: approvals the user gives (or not) before the agent runs a shell command, and
	// the base commands they allowed for good.
	`CREATE TABLE approvals (
		id              TEXT    PRIMARY KEY,
		run_id          TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		conversation_id TEXT    REFERENCES conversations (id) ON DELETE CASCADE,
		call_id         TEXT    NOT NULL,
		tool_name       TEXT    NOT NULL,
		request         TEXT    NOT NULL CHECK (json_valid(request)),
		status          TEXT    NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'cancelled')),
		decision        TEXT    CHECK (decision IS NULL OR decision IN ('approve', 'approve_always', 'deny')),
		note            TEXT    NOT NULL DEFAULT '',
		created_at      INTEGER NOT NULL,
		decided_at      INTEGER,
		UNIQUE (run_id, call_id)
	);
	CREATE INDEX approvals_pending ON approvals (created_at, id) WHERE status = 'pending';

	CREATE TABLE grants (
		id         TEXT    PRIMARY KEY,
		base       TEXT    NOT NULL UNIQUE,
		created_at INTEGER NOT NULL
	);

	-- Display messages learn the approval card and a tool waiting for it.
	CREATE TABLE display_messages_5 (
		n               INTEGER PRIMARY KEY,
		id              TEXT    NOT NULL UNIQUE,
		conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		run_id          TEXT,
		message_type    TEXT    NOT NULL CHECK (message_type IN ('user', 'assistant', 'tool', 'system')),
		content_type    TEXT    NOT NULL CHECK (content_type IN ('text', 'thinking', 'tool_call', 'tool_result', 'error', 'notification', 'approval')),
		content         TEXT    NOT NULL,
		status          TEXT    CHECK (status IS NULL OR status IN ('pending', 'waiting', 'executing', 'completed', 'failed', 'interrupted', 'cancelled')),
		tool_call_id    TEXT,
		metadata        TEXT,
		created_at      INTEGER NOT NULL,
		updated_at      INTEGER NOT NULL
	) STRICT;
	INSERT INTO display_messages_5 SELECT * FROM display_messages;
	DROP TABLE display_messages;
	ALTER TABLE display_messages_5 RENAME TO display_messages;
	CREATE INDEX display_messages_tool_call_id ON display_messages (tool_call_id) WHERE tool_call_id IS NOT NULL;
	CREATE INDEX display_messages_conversation_n ON display_messages (conversation_id, n);`,

	// 6: grants have a kind: a shell base command, or an MCP server's tool
	// ("server.tool"); the same text in two kinds is two grants.
	`CREATE TABLE grants_6 (
		id         TEXT    PRIMARY KEY,
		kind       TEXT    NOT NULL CHECK (kind IN ('shell', 'mcp')),
		base       TEXT    NOT NULL,
		created_at INTEGER NOT NULL,
		UNIQUE (kind, base)
	);
	INSERT INTO grants_6 (id, kind, base, created_at) SELECT id, 'shell', base, created_at FROM grants;
	DROP TABLE grants;
	ALTER TABLE grants_6 RENAME TO grants;`,

	// 7: search over all history: a full-text index of the messages' text (FTS5, the
	// table's content read from messages by rowid n), kept in step by triggers, and
	// filled with the messages already there. unicode61 folds case and diacritics
	// ("cafe" finds "Café"); the 2- and 3-character prefix indexes serve type-ahead.
	`CREATE VIRTUAL TABLE messages_fts USING fts5 (
		text,
		content = 'messages', content_rowid = 'n',
		tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
	);
	CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
		INSERT INTO messages_fts (rowid, text) VALUES (new.n, new.text);
	END;
	CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
		INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.n, old.text);
	END;
	CREATE TRIGGER messages_fts_update AFTER UPDATE OF n, text ON messages BEGIN
		INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.n, old.text);
		INSERT INTO messages_fts (rowid, text) VALUES (new.n, new.text);
	END;
	INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');`,

	// 8: an approval is bound to what its call does: a hash of the call's kind, tool
	// and exact arguments, checked whenever the approval is found again for a call.
	// Approvals from before have none, and release nothing that is asked again.
	`ALTER TABLE approvals ADD COLUMN binding TEXT NOT NULL DEFAULT '';`,

	// 9: conversations are trees. A message follows its parent (NULL for the first),
	// at a depth on its branch (0 for the first); a conversation shows the branch that
	// ends at its active leaf. Every conversation before becomes one branch in the
	// order it was saved, its last message the leaf. No foreign key on parent_id: a
	// cascade down a 10,000-message branch would outgrow SQLite's trigger depth, so
	// the store deletes subtrees itself.
	`ALTER TABLE messages ADD COLUMN parent_id TEXT;
	ALTER TABLE messages ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE conversations ADD COLUMN active_leaf_id TEXT;
	UPDATE messages SET parent_id = t.pid, depth = t.d FROM (
		SELECT n, LAG(id) OVER w AS pid, ROW_NUMBER() OVER w - 1 AS d
		FROM messages WINDOW w AS (PARTITION BY conversation_id ORDER BY n)
	) AS t WHERE messages.n = t.n;
	UPDATE conversations SET active_leaf_id =
		(SELECT id FROM messages m WHERE m.conversation_id = conversations.id ORDER BY n DESC LIMIT 1);
	CREATE INDEX messages_children ON messages (conversation_id, parent_id, n);`,

	// 10: a page of a long conversation reads only its own messages (a walk up the
	// branch starts at the nearest depth where the tree does not fork) and the display
	// messages of its runs.
	`CREATE INDEX messages_depth ON messages (conversation_id, depth);
	CREATE INDEX display_messages_run ON display_messages (run_id) WHERE run_id IS NOT NULL;`,

	// 11: the memory the user owns, one Markdown document per character, every change
	// a version (the newest 100 are kept); an undo names the version whose text it
	// restored (0: the empty memory before the first). An approval of a memory can be
	// decided with the user's edit of the proposed text.
	`CREATE TABLE memory_versions (
		character  TEXT    NOT NULL,
		version    INTEGER NOT NULL CHECK (version >= 1),
		text       TEXT    NOT NULL,
		source     TEXT    NOT NULL CHECK (source IN ('user', 'agent', 'undo')),
		restores   INTEGER CHECK (restores IS NULL OR restores >= 0),
		created_at INTEGER NOT NULL,
		PRIMARY KEY (character, version)
	) STRICT;
	ALTER TABLE approvals ADD COLUMN edited_text TEXT;`,
	// 12: usage and cost: one row per model call group Wisp makes (a run, a summary, a
	// title, a /v1 request), the tokens its provider reported and what they cost at
	// the price then (NULL: the model has no price). A deleted conversation leaves its
	// rows, without its id, in the totals: the money was spent. day is the local date
	// of at when recorded, which the report groups by.
	`CREATE TABLE usage (
		n                  INTEGER PRIMARY KEY,
		id                 TEXT    NOT NULL UNIQUE,
		at                 INTEGER NOT NULL,
		day                TEXT    NOT NULL,
		model              TEXT    NOT NULL,
		provider           TEXT    NOT NULL,
		kind               TEXT    NOT NULL CHECK (kind IN ('chat', 'summary', 'title', 'v1')),
		conversation_id    TEXT    REFERENCES conversations (id) ON DELETE SET NULL,
		run_id             TEXT,
		message_id         TEXT,
		input_tokens       INTEGER NOT NULL CHECK (input_tokens >= 0),
		output_tokens      INTEGER NOT NULL CHECK (output_tokens >= 0),
		cache_read_tokens  INTEGER NOT NULL CHECK (cache_read_tokens >= 0),
		cache_write_tokens INTEGER NOT NULL CHECK (cache_write_tokens >= 0),
		cost_usd           REAL    CHECK (cost_usd IS NULL OR cost_usd >= 0)
	) STRICT;
	CREATE INDEX usage_conversation ON usage (conversation_id);
	CREATE INDEX usage_day ON usage (day, model);
	CREATE INDEX usage_message ON usage (message_id) WHERE message_id IS NOT NULL;
	CREATE INDEX usage_run ON usage (run_id) WHERE run_id IS NOT NULL;`,

	// 13: the model's context is assembled by tokens. A message keeps its token count
	// and the counter that made it (another model's counter counts again); a summary
	// stands for the messages of a branch through one of them (docs/context.md).
	`ALTER TABLE messages ADD COLUMN tokens INTEGER;
	ALTER TABLE messages ADD COLUMN tokens_by TEXT;
	CREATE TABLE summaries (
		id TEXT PRIMARY KEY,
		conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
		through_id TEXT NOT NULL,
		covers INTEGER NOT NULL,
		from_at INTEGER NOT NULL,
		through_at INTEGER NOT NULL,
		text TEXT NOT NULL DEFAULT '',
		status TEXT NOT NULL,
		error TEXT NOT NULL DEFAULT '',
		run_id TEXT NOT NULL DEFAULT '',
		tokens INTEGER NOT NULL DEFAULT 0,
		model TEXT NOT NULL DEFAULT '',
		input_tokens INTEGER NOT NULL DEFAULT 0,
		output_tokens INTEGER NOT NULL DEFAULT 0,
		cache_read_tokens INTEGER NOT NULL DEFAULT 0,
		cache_write_tokens INTEGER NOT NULL DEFAULT 0,
		created_at INTEGER NOT NULL
	);
	CREATE INDEX summaries_through ON summaries (conversation_id, through_id);`,

	// 14: attachments. A blob is a file's bytes, stored once per sha256 in the state
	// folder (attachments/<2 hex>/<sha256>); an attachment is one upload of a blob
	// under a name; a message lists its attachments in order. An attachment no
	// message lists (after its grace time) and a blob no attachment names are
	// removed by the collector (docs/attachments.md).
	`CREATE TABLE blobs (
		sha256     TEXT    PRIMARY KEY CHECK (length(sha256) = 64),
		size       INTEGER NOT NULL CHECK (size >= 0),
		mime       TEXT    NOT NULL,
		kind       TEXT    NOT NULL CHECK (kind IN ('image', 'pdf', 'text', 'file')),
		width      INTEGER NOT NULL DEFAULT 0,
		height     INTEGER NOT NULL DEFAULT 0,
		pages      INTEGER NOT NULL DEFAULT 0,
		created_at INTEGER NOT NULL
	) STRICT;
	CREATE TABLE attachments (
		id         TEXT    PRIMARY KEY,
		sha256     TEXT    NOT NULL REFERENCES blobs (sha256),
		name       TEXT    NOT NULL,
		created_at INTEGER NOT NULL
	) STRICT;
	CREATE INDEX attachments_sha256 ON attachments (sha256);
	CREATE TABLE message_attachments (
		message_id    TEXT    NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
		ord           INTEGER NOT NULL,
		attachment_id TEXT    NOT NULL REFERENCES attachments (id),
		PRIMARY KEY (message_id, ord)
	) STRICT;
	CREATE INDEX message_attachments_attachment ON message_attachments (attachment_id);`,

	// 15: the text of attached documents, their pages and chunks, and the chunks'
	// full-text index (docTextMigration, in doctext.go).
	docTextMigration,

	// 16: grants of the agent's hands: a site it may fetch (web), a folder of
	// files.roots it may read (file_read) or change (file_edit).
	`CREATE TABLE grants_16 (
		id         TEXT    PRIMARY KEY,
		kind       TEXT    NOT NULL CHECK (kind IN ('shell', 'mcp', 'web', 'file_read', 'file_edit')),
		base       TEXT    NOT NULL,
		created_at INTEGER NOT NULL,
		UNIQUE (kind, base)
	);
	INSERT INTO grants_16 (id, kind, base, created_at) SELECT id, kind, base, created_at FROM grants;
	DROP TABLE grants;
	ALTER TABLE grants_16 RENAME TO grants;`,

	// 17: the files the agent read and the edits it made, to refuse a stale edit and
	// to undo one (fileEditsMigration, in file_edits.go).
	fileEditsMigration,

	// 18: tasks on a schedule and their runs, one per slot (tasksMigration, in tasks.go).
	tasksMigration,
}

// SchemaVersion is the version a fully migrated database has.
func SchemaVersion() int { return len(migrations) }

func (s *Store) migrate(ctx context.Context, steps []string) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if version > len(steps) {
		return fmt.Errorf("database schema version %d is newer than this Wisp (%d): upgrade Wisp", version, len(steps))
	}
	for i := version; i < len(steps); i++ {
		if err := s.applyMigration(ctx, i+1, steps[i]); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) applyMigration(ctx context.Context, version int, stmt string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	return nil
}
