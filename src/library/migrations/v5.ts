/**
 * Schema version 5 (foreign keys, full-text indexes, price_value, views, bookkeeping as
 * _pep_*), frozen: the statements exactly as the pep that made this version ran them, one
 * list per store. Never edited: a library made by it holds these tables, and later
 * versions change them with migrations of their own, never by rewriting this one.
 *
 * SQLite cannot add a constraint to a table, so the tables that reference others
 * (products, prices, peptide_studies, study_cited_by) are made anew with their keys
 * declared and their rows copied; the sync's connection leaves them unenforced
 * (sqlite.ts). PostgreSQL enforces a key always, so there only the two the sync keeps
 * true are constraints (a peptide's cited studies, a study's citing peptides: each
 * row's owner, removed with it), the others a comment. The full-text indexes are
 * sqlite-utils' (`<table>_fts`, FTS5 over the table, kept by triggers) and PostgreSQL's
 * `fts` tsvector with a GIN index. It follows version 4: the tables it makes anew keep
 * the `valid_from` that version added.
 */

export const SQLITE: readonly string[] = [
  `ALTER TABLE pages RENAME TO _pep_pages`,
  `ALTER TABLE staged_pages RENAME TO _pep_staged_pages`,
  `ALTER TABLE sync_state RENAME TO _pep_sync_state`,
  `ALTER TABLE staged_peptides RENAME TO _pep_staged_peptides`,
  `ALTER TABLE staged_studies RENAME TO _pep_staged_studies`,
  `ALTER TABLE staged_vendors RENAME TO _pep_staged_vendors`,
  `ALTER TABLE staged_categories RENAME TO _pep_staged_categories`,
  `ALTER TABLE staged_research_areas RENAME TO _pep_staged_research_areas`,
  `CREATE TABLE "_pep_v5_products" (
  id TEXT PRIMARY KEY,
  "peptide_id" TEXT REFERENCES "peptides" (id),
  "peptide_name" TEXT,
  "form" TEXT,
  "name" TEXT,
  "product_category" TEXT,
  "price_ranges" TEXT,
  "vendor_count" INTEGER,
  item TEXT NOT NULL,
  ord INTEGER NOT NULL,
  first_seen TEXT NOT NULL,
  last_seen TEXT NOT NULL,
  last_sync INTEGER NOT NULL,
  synthetic INTEGER NOT NULL DEFAULT 0,
  valid_from INTEGER
)`,
  `INSERT INTO "_pep_v5_products" (id, "peptide_id", "peptide_name", "form", "name", "product_category", "price_ranges", "vendor_count", item, ord, first_seen, last_seen, last_sync, synthetic, valid_from)
  SELECT id, "peptide_id", "peptide_name", "form", "name", "product_category", "price_ranges", "vendor_count", item, ord, first_seen, last_seen, last_sync, synthetic, valid_from FROM "products"`,
  `DROP TABLE "products"`,
  `ALTER TABLE "_pep_v5_products" RENAME TO "products"`,
  `CREATE INDEX "products_ord" ON "products" (ord)`,
  `CREATE INDEX "products_peptide_id" ON "products" ("peptide_id")`,
  `CREATE INDEX "products_form" ON "products" ("form")`,
  `CREATE TABLE "_pep_staged_products" (
  id TEXT PRIMARY KEY,
  "peptide_id" TEXT REFERENCES "peptides" (id),
  "peptide_name" TEXT,
  "form" TEXT,
  "name" TEXT,
  "product_category" TEXT,
  "price_ranges" TEXT,
  "vendor_count" INTEGER,
  item TEXT NOT NULL,
  ord INTEGER NOT NULL,
  first_seen TEXT NOT NULL,
  last_seen TEXT NOT NULL,
  last_sync INTEGER NOT NULL,
  synthetic INTEGER NOT NULL DEFAULT 0,
  valid_from INTEGER
)`,
  `INSERT INTO "_pep_staged_products" (id, "peptide_id", "peptide_name", "form", "name", "product_category", "price_ranges", "vendor_count", item, ord, first_seen, last_seen, last_sync, synthetic, valid_from)
  SELECT id, "peptide_id", "peptide_name", "form", "name", "product_category", "price_ranges", "vendor_count", item, ord, first_seen, last_seen, last_sync, synthetic, valid_from FROM "staged_products"`,
  `DROP TABLE "staged_products"`,
  `CREATE TABLE "_pep_v5_prices" (
  id TEXT PRIMARY KEY,
  "peptide_id" TEXT REFERENCES "peptides" (id),
  "peptide_name" TEXT,
  "vendor_id" TEXT REFERENCES "vendors" (id),
  "vendor_name" TEXT,
  "vendor_slug" TEXT,
  "product_name" TEXT,
  "form" TEXT,
  "price" TEXT,
  "price_value" REAL,
  "currency" TEXT,
  "last_seen_at" TEXT,
  "product_page_url" TEXT,
  "in_stock" INTEGER,
  item TEXT NOT NULL,
  ord INTEGER NOT NULL,
  first_seen TEXT NOT NULL,
  last_seen TEXT NOT NULL,
  last_sync INTEGER NOT NULL,
  synthetic INTEGER NOT NULL DEFAULT 0,
  valid_from INTEGER
)`,
  `INSERT INTO "_pep_v5_prices" (id, "peptide_id", "peptide_name", "vendor_id", "vendor_name", "vendor_slug", "product_name", "form", "price", "price_value", "currency", "last_seen_at", "product_page_url", "in_stock", item, ord, first_seen, last_seen, last_sync, synthetic, valid_from)
  SELECT id, "peptide_id", "peptide_name", "vendor_id", "vendor_name", "vendor_slug", "product_name", "form", "price", CASE WHEN json_type(item, '$."price"') IN ('integer', 'real') THEN json_extract(item, '$."price"') WHEN json_type(item, '$."price"') = 'text' AND substr(json_extract(item, '$."price"'), 1 + (json_extract(item, '$."price"') GLOB '-*')) GLOB '[0-9]*' AND substr(json_extract(item, '$."price"'), 1 + (json_extract(item, '$."price"') GLOB '-*')) NOT GLOB '*[^0-9.]*' AND substr(json_extract(item, '$."price"'), 1 + (json_extract(item, '$."price"') GLOB '-*')) NOT GLOB '*.*.*' AND substr(json_extract(item, '$."price"'), 1 + (json_extract(item, '$."price"') GLOB '-*')) NOT GLOB '*.' THEN CAST(json_extract(item, '$."price"') AS REAL) END, "currency", "last_seen_at", "product_page_url", "in_stock", item, ord, first_seen, last_seen, last_sync, synthetic, valid_from FROM "prices"`,
  `DROP TABLE "prices"`,
  `ALTER TABLE "_pep_v5_prices" RENAME TO "prices"`,
  `CREATE INDEX "prices_ord" ON "prices" (ord)`,
  `CREATE INDEX "prices_peptide_id" ON "prices" ("peptide_id")`,
  `CREATE INDEX "prices_vendor_id" ON "prices" ("vendor_id")`,
  `CREATE INDEX "prices_currency" ON "prices" ("currency")`,
  `CREATE INDEX "prices_form" ON "prices" ("form")`,
  `CREATE TABLE "_pep_staged_prices" (
  id TEXT PRIMARY KEY,
  "peptide_id" TEXT REFERENCES "peptides" (id),
  "peptide_name" TEXT,
  "vendor_id" TEXT REFERENCES "vendors" (id),
  "vendor_name" TEXT,
  "vendor_slug" TEXT,
  "product_name" TEXT,
  "form" TEXT,
  "price" TEXT,
  "price_value" REAL,
  "currency" TEXT,
  "last_seen_at" TEXT,
  "product_page_url" TEXT,
  "in_stock" INTEGER,
  item TEXT NOT NULL,
  ord INTEGER NOT NULL,
  first_seen TEXT NOT NULL,
  last_seen TEXT NOT NULL,
  last_sync INTEGER NOT NULL,
  synthetic INTEGER NOT NULL DEFAULT 0,
  valid_from INTEGER
)`,
  `INSERT INTO "_pep_staged_prices" (id, "peptide_id", "peptide_name", "vendor_id", "vendor_name", "vendor_slug", "product_name", "form", "price", "price_value", "currency", "last_seen_at", "product_page_url", "in_stock", item, ord, first_seen, last_seen, last_sync, synthetic, valid_from)
  SELECT id, "peptide_id", "peptide_name", "vendor_id", "vendor_name", "vendor_slug", "product_name", "form", "price", CASE WHEN item <> '' THEN CASE WHEN json_type(item, '$."price"') IN ('integer', 'real') THEN json_extract(item, '$."price"') WHEN json_type(item, '$."price"') = 'text' AND substr(json_extract(item, '$."price"'), 1 + (json_extract(item, '$."price"') GLOB '-*')) GLOB '[0-9]*' AND substr(json_extract(item, '$."price"'), 1 + (json_extract(item, '$."price"') GLOB '-*')) NOT GLOB '*[^0-9.]*' AND substr(json_extract(item, '$."price"'), 1 + (json_extract(item, '$."price"') GLOB '-*')) NOT GLOB '*.*.*' AND substr(json_extract(item, '$."price"'), 1 + (json_extract(item, '$."price"') GLOB '-*')) NOT GLOB '*.' THEN CAST(json_extract(item, '$."price"') AS REAL) END END, "currency", "last_seen_at", "product_page_url", "in_stock", item, ord, first_seen, last_seen, last_sync, synthetic, valid_from FROM "staged_prices"`,
  `DROP TABLE "staged_prices"`,
  `CREATE TABLE _pep_v5_peptide_studies (
  peptide_id TEXT NOT NULL REFERENCES peptides (id) ON DELETE CASCADE,
  study_id TEXT NOT NULL REFERENCES studies (id),
  position INTEGER NOT NULL,
  PRIMARY KEY (peptide_id, study_id)
)`,
  `INSERT INTO _pep_v5_peptide_studies (peptide_id, study_id, position) SELECT peptide_id, study_id, position FROM peptide_studies WHERE peptide_id IN (SELECT id FROM peptides)`,
  `DROP TABLE peptide_studies`,
  `ALTER TABLE _pep_v5_peptide_studies RENAME TO peptide_studies`,
  `CREATE INDEX peptide_studies_study ON peptide_studies (study_id)`,
  `CREATE TABLE _pep_v5_study_cited_by (
  study_id TEXT NOT NULL REFERENCES studies (id) ON DELETE CASCADE,
  peptide_id TEXT NOT NULL REFERENCES peptides (id),
  position INTEGER NOT NULL,
  PRIMARY KEY (study_id, peptide_id)
)`,
  `INSERT INTO _pep_v5_study_cited_by (study_id, peptide_id, position) SELECT study_id, peptide_id, position FROM study_cited_by WHERE study_id IN (SELECT id FROM studies)`,
  `DROP TABLE study_cited_by`,
  `ALTER TABLE _pep_v5_study_cited_by RENAME TO study_cited_by`,
  `CREATE INDEX study_cited_by_peptide ON study_cited_by (peptide_id)`,
  `CREATE VIRTUAL TABLE [studies_fts] USING FTS5 (
  [title], [journal], [authors],
  content=[studies]
)`,
  `CREATE TRIGGER [studies_ai] AFTER INSERT ON [studies] BEGIN
  INSERT INTO [studies_fts] (rowid, [title], [journal], [authors]) VALUES (new.rowid, new.[title], new.[journal], new.[authors]);
END`,
  `CREATE TRIGGER [studies_ad] AFTER DELETE ON [studies] BEGIN
  INSERT INTO [studies_fts] ([studies_fts], rowid, [title], [journal], [authors]) VALUES('delete', old.rowid, old.[title], old.[journal], old.[authors]);
END`,
  `CREATE TRIGGER [studies_au] AFTER UPDATE OF [title], [journal], [authors] ON [studies] BEGIN
  INSERT INTO [studies_fts] ([studies_fts], rowid, [title], [journal], [authors]) VALUES('delete', old.rowid, old.[title], old.[journal], old.[authors]);
  INSERT INTO [studies_fts] (rowid, [title], [journal], [authors]) VALUES (new.rowid, new.[title], new.[journal], new.[authors]);
END`,
  `INSERT INTO [studies_fts] ([studies_fts]) VALUES ('rebuild')`,
  `CREATE VIRTUAL TABLE [peptides_fts] USING FTS5 (
  [name], [also_known_as], [summary],
  content=[peptides]
)`,
  `CREATE TRIGGER [peptides_ai] AFTER INSERT ON [peptides] BEGIN
  INSERT INTO [peptides_fts] (rowid, [name], [also_known_as], [summary]) VALUES (new.rowid, new.[name], new.[also_known_as], new.[summary]);
END`,
  `CREATE TRIGGER [peptides_ad] AFTER DELETE ON [peptides] BEGIN
  INSERT INTO [peptides_fts] ([peptides_fts], rowid, [name], [also_known_as], [summary]) VALUES('delete', old.rowid, old.[name], old.[also_known_as], old.[summary]);
END`,
  `CREATE TRIGGER [peptides_au] AFTER UPDATE OF [name], [also_known_as], [summary] ON [peptides] BEGIN
  INSERT INTO [peptides_fts] ([peptides_fts], rowid, [name], [also_known_as], [summary]) VALUES('delete', old.rowid, old.[name], old.[also_known_as], old.[summary]);
  INSERT INTO [peptides_fts] (rowid, [name], [also_known_as], [summary]) VALUES (new.rowid, new.[name], new.[also_known_as], new.[summary]);
END`,
  `INSERT INTO [peptides_fts] ([peptides_fts]) VALUES ('rebuild')`,
  `CREATE VIEW study_citing_peptides AS
SELECT s.id AS study_id, s.title, s.publication_year, s.journal, s.doi, s.pmid, s.evidence_classification,
  c.position, c.peptide_id, p.name AS peptide_name, p.evidence_level AS peptide_evidence_level
FROM studies s
JOIN study_cited_by c ON c.study_id = s.id
LEFT JOIN peptides p ON p.id = c.peptide_id`,
  `CREATE VIEW peptide_cited_studies AS
SELECT p.id AS peptide_id, p.name AS peptide_name, l.position, l.study_id,
  s.title, s.publication_year, s.journal, s.doi, s.pmid, s.evidence_classification
FROM peptides p
JOIN peptide_studies l ON l.peptide_id = p.id
LEFT JOIN studies s ON s.id = l.study_id`,
  `CREATE VIEW peptide_price_ranges AS
SELECT peptide_id, MAX(peptide_name) AS peptide_name, vendor_id, MAX(vendor_name) AS vendor_name, currency,
  COUNT(*) AS offers, SUM(CASE WHEN in_stock THEN 1 ELSE 0 END) AS in_stock_offers,
  MIN(price_value) AS min_price, MAX(price_value) AS max_price
FROM prices
GROUP BY peptide_id, vendor_id, currency`,
];

export const POSTGRES: readonly string[] = [
  `ALTER TABLE pages RENAME TO _pep_pages`,
  `ALTER INDEX pages_pkey RENAME TO _pep_pages_pkey`,
  `ALTER TABLE staged_pages RENAME TO _pep_staged_pages`,
  `ALTER INDEX staged_pages_pkey RENAME TO _pep_staged_pages_pkey`,
  `ALTER TABLE sync_state RENAME TO _pep_sync_state`,
  `ALTER INDEX sync_state_pkey RENAME TO _pep_sync_state_pkey`,
  `ALTER TABLE staged_peptides RENAME TO _pep_staged_peptides`,
  `ALTER INDEX staged_peptides_pkey RENAME TO _pep_staged_peptides_pkey`,
  `ALTER TABLE staged_studies RENAME TO _pep_staged_studies`,
  `ALTER INDEX staged_studies_pkey RENAME TO _pep_staged_studies_pkey`,
  `ALTER TABLE staged_vendors RENAME TO _pep_staged_vendors`,
  `ALTER INDEX staged_vendors_pkey RENAME TO _pep_staged_vendors_pkey`,
  `ALTER TABLE staged_products RENAME TO _pep_staged_products`,
  `ALTER INDEX staged_products_pkey RENAME TO _pep_staged_products_pkey`,
  `ALTER TABLE staged_prices RENAME TO _pep_staged_prices`,
  `ALTER INDEX staged_prices_pkey RENAME TO _pep_staged_prices_pkey`,
  `ALTER TABLE staged_categories RENAME TO _pep_staged_categories`,
  `ALTER INDEX staged_categories_pkey RENAME TO _pep_staged_categories_pkey`,
  `ALTER TABLE staged_research_areas RENAME TO _pep_staged_research_areas`,
  `ALTER INDEX staged_research_areas_pkey RENAME TO _pep_staged_research_areas_pkey`,
  `ALTER TABLE prices ADD COLUMN price_value numeric`,
  `UPDATE prices SET price_value = CASE WHEN jsonb_typeof(item #> '{price}') IN ('string', 'number') AND (item #>> '{price}') ~ '^-?[0-9]+([.][0-9]+)?$' THEN (item #>> '{price}')::numeric END`,
  `ALTER TABLE _pep_staged_prices ADD COLUMN price_value numeric`,
  `UPDATE _pep_staged_prices SET price_value = CASE WHEN jsonb_typeof(item::jsonb #> '{price}') IN ('string', 'number') AND (item::jsonb #>> '{price}') ~ '^-?[0-9]+([.][0-9]+)?$' THEN (item::jsonb #>> '{price}')::numeric END WHERE item IS NOT NULL`,
  `DELETE FROM peptide_studies WHERE NOT EXISTS (SELECT 1 FROM peptides p WHERE p.id = peptide_studies.peptide_id)`,
  `ALTER TABLE peptide_studies ADD CONSTRAINT peptide_studies_peptide_id_fkey FOREIGN KEY (peptide_id) REFERENCES peptides (id) ON DELETE CASCADE`,
  `DELETE FROM study_cited_by WHERE NOT EXISTS (SELECT 1 FROM studies s WHERE s.id = study_cited_by.study_id)`,
  `ALTER TABLE study_cited_by ADD CONSTRAINT study_cited_by_study_id_fkey FOREIGN KEY (study_id) REFERENCES studies (id) ON DELETE CASCADE`,
  `COMMENT ON COLUMN products.peptide_id IS 'references peptides (id), not as a constraint: the library may hold it before or without peptides (docs/library.md)'`,
  `COMMENT ON COLUMN prices.peptide_id IS 'references peptides (id), not as a constraint: the library may hold it before or without peptides (docs/library.md)'`,
  `COMMENT ON COLUMN prices.vendor_id IS 'references vendors (id), not as a constraint: the library may hold it before or without vendors (docs/library.md)'`,
  `COMMENT ON COLUMN peptide_studies.study_id IS 'references studies (id), not as a constraint: the library may hold it before or without studies (docs/library.md)'`,
  `COMMENT ON COLUMN study_cited_by.peptide_id IS 'references peptides (id), not as a constraint: the library may hold it before or without peptides (docs/library.md)'`,
  `ALTER TABLE studies ADD COLUMN fts tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', coalesce(title, '')), 'A')
  || setweight(to_tsvector('simple', coalesce(authors, '[]'::jsonb)), 'B')
  || setweight(to_tsvector('simple', coalesce(journal, '')), 'C')
) STORED`,
  `CREATE INDEX studies_fts ON studies USING gin (fts)`,
  `ALTER TABLE peptides ADD COLUMN fts tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', coalesce(name, '')), 'A')
  || setweight(to_tsvector('simple', coalesce(also_known_as, '[]'::jsonb)), 'A')
  || setweight(to_tsvector('simple', coalesce(summary, '')), 'B')
) STORED`,
  `CREATE INDEX peptides_fts ON peptides USING gin (fts)`,
  `CREATE VIEW study_citing_peptides AS
SELECT s.id AS study_id, s.title, s.publication_year, s.journal, s.doi, s.pmid, s.evidence_classification,
  c.position, c.peptide_id, p.name AS peptide_name, p.evidence_level AS peptide_evidence_level
FROM studies s
JOIN study_cited_by c ON c.study_id = s.id
LEFT JOIN peptides p ON p.id = c.peptide_id`,
  `CREATE VIEW peptide_cited_studies AS
SELECT p.id AS peptide_id, p.name AS peptide_name, l.position, l.study_id,
  s.title, s.publication_year, s.journal, s.doi, s.pmid, s.evidence_classification
FROM peptides p
JOIN peptide_studies l ON l.peptide_id = p.id
LEFT JOIN studies s ON s.id = l.study_id`,
  `CREATE VIEW peptide_price_ranges AS
SELECT peptide_id, MAX(peptide_name) AS peptide_name, vendor_id, MAX(vendor_name) AS vendor_name, currency,
  COUNT(*) AS offers, SUM(CASE WHEN in_stock THEN 1 ELSE 0 END) AS in_stock_offers,
  MIN(price_value) AS min_price, MAX(price_value) AS max_price
FROM prices
GROUP BY peptide_id, vendor_id, currency`,
];
