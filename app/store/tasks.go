package store

// tasksMigration keeps the tasks and their runs: one run per task and slot (the
// primary key), claimed in the transaction that saves the run's user message, so a
// slot never runs twice.
const tasksMigration = `CREATE TABLE tasks (
		id              TEXT    PRIMARY KEY,
		prompt          TEXT    NOT NULL,
		conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		at              INTEGER,
		rrule           TEXT    NOT NULL DEFAULT '',
		cron            TEXT    NOT NULL DEFAULT '',
		dtstart         INTEGER NOT NULL,
		catch_up        INTEGER NOT NULL DEFAULT 1 CHECK (catch_up IN (0, 1)),
		paused          INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
		next_run_at     INTEGER,
		grants          TEXT    NOT NULL DEFAULT '[]',
		created_at      INTEGER NOT NULL
	) STRICT;
	CREATE INDEX tasks_next ON tasks (next_run_at) WHERE next_run_at IS NOT NULL AND paused = 0;
	CREATE TABLE task_runs (
		task_id    TEXT    NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
		slot       INTEGER NOT NULL,
		run_id     TEXT    UNIQUE, -- NULL for a slot that never started (skipped, failed to start)
		manual     INTEGER NOT NULL DEFAULT 0 CHECK (manual IN (0, 1)),
		started_at INTEGER NOT NULL,
		status     TEXT    NOT NULL,
		result     TEXT    NOT NULL DEFAULT '',
		error      TEXT    NOT NULL DEFAULT '',
		PRIMARY KEY (task_id, slot)
	) STRICT;`
