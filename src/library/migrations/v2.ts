/**
 * Schema version 2 (details, peptide_studies, study_cited_by), frozen: the statements exactly as the pep that
 * made this version ran them, one list per store. Never edited: a library made by it
 * holds these tables, and later versions change them with migrations of their own
 * (ALTER plus a backfill from the kept item text), never by rewriting this one.
 */

export const SQLITE: readonly string[] = [
  `CREATE TABLE details (
  resource TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  etag TEXT,
  fetched_at TEXT NOT NULL,
  sync_id INTEGER NOT NULL,
  PRIMARY KEY (resource, id, kind)
)`,
  `CREATE TABLE peptide_studies (
  peptide_id TEXT NOT NULL,
  study_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (peptide_id, study_id)
)`,
  "CREATE INDEX peptide_studies_study ON peptide_studies (study_id)",
  `CREATE TABLE study_cited_by (
  study_id TEXT NOT NULL,
  peptide_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (study_id, peptide_id)
)`,
  "CREATE INDEX study_cited_by_peptide ON study_cited_by (peptide_id)",
];

export const POSTGRES: readonly string[] = [
  `CREATE TABLE details (
  resource text NOT NULL,
  id text NOT NULL,
  kind text NOT NULL,
  body jsonb NOT NULL, body_text text NOT NULL,
  etag text,
  fetched_at text NOT NULL,
  sync_id bigint NOT NULL,
  PRIMARY KEY (resource, id, kind)
)`,
  `CREATE TABLE peptide_studies (
  peptide_id text NOT NULL,
  study_id text NOT NULL,
  position bigint NOT NULL,
  PRIMARY KEY (peptide_id, study_id)
)`,
  "CREATE INDEX peptide_studies_study ON peptide_studies (study_id)",
  `CREATE TABLE study_cited_by (
  study_id text NOT NULL,
  peptide_id text NOT NULL,
  position bigint NOT NULL,
  PRIMARY KEY (study_id, peptide_id)
)`,
  "CREATE INDEX study_cited_by_peptide ON study_cited_by (peptide_id)",
];
