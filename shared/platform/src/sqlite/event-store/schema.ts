export const CHECKPOINT_SCHEMA = `
CREATE TABLE IF NOT EXISTS consumer_checkpoints (
  consumer TEXT PRIMARY KEY,
  position INTEGER NOT NULL
);
`;

/**
 * The log (`position` is the global order, `(stream, revision)` a stream's), the results of appends
 * made under an idempotency key, and the consumers' checkpoints, all in one file.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id    TEXT    NOT NULL UNIQUE,
  stream      TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL CHECK (json_valid(data)),
  metadata    TEXT    NOT NULL CHECK (json_valid(metadata)),
  occurred_at TEXT    NOT NULL,
  UNIQUE (stream, revision)
);
CREATE TABLE IF NOT EXISTS idempotent_appends (
  idempotency_key TEXT    NOT NULL,
  stream          TEXT    NOT NULL,
  next_revision   INTEGER NOT NULL,
  position        INTEGER NOT NULL,
  PRIMARY KEY (idempotency_key, stream)
) WITHOUT ROWID;
${CHECKPOINT_SCHEMA}`;

export interface EventRow {
  position: bigint;
  event_id: string;
  stream: string;
  revision: bigint;
  type: string;
  data: string;
  metadata: string;
  occurred_at: string;
}

export const COLUMNS = 'position, event_id, stream, revision, type, data, metadata, occurred_at';
