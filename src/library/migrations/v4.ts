/**
 * Schema version 4 (item versions, walk orders), frozen: the statements exactly as the pep
 * that made this version ran them, one list per store. Never edited.
 *
 * `item_versions` keeps each text an item had before its current one, as sent, valid
 * from one sync to another (`valid_from` <= sync < `valid_to`); the current text stays in
 * the resource table alone, with the sync it is valid from (`valid_from`; NULL on rows a
 * first fill wrote: their `last_sync`). `_pep_walk_orders` keeps the ids of a resource's
 * complete walk in order (a JSON array), a row only when the order differs from the last
 * one kept. A library made before this version gets its current state as the first
 * version, valid from the resource's last complete walk.
 */

export const SQLITE: readonly string[] = [
  `CREATE TABLE item_versions (
  resource TEXT NOT NULL,
  id TEXT NOT NULL,
  item TEXT NOT NULL,
  valid_from INTEGER NOT NULL,
  valid_to INTEGER NOT NULL,
  PRIMARY KEY (resource, id, valid_to)
)`,
  "CREATE INDEX item_versions_to ON item_versions (resource, valid_to)",
  `CREATE TABLE _pep_walk_orders (
  resource TEXT NOT NULL,
  sync_id INTEGER NOT NULL,
  ids TEXT NOT NULL,
  PRIMARY KEY (resource, sync_id)
)`,
  'ALTER TABLE "peptides" ADD COLUMN valid_from INTEGER',
  'ALTER TABLE "staged_peptides" ADD COLUMN valid_from INTEGER',
  `UPDATE "peptides" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'peptides'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT json_group_array(id) FROM (SELECT id FROM "peptides" ORDER BY ord)) FROM walks w WHERE w.resource = 'peptides'`,
  'ALTER TABLE "studies" ADD COLUMN valid_from INTEGER',
  'ALTER TABLE "staged_studies" ADD COLUMN valid_from INTEGER',
  `UPDATE "studies" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'studies'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT json_group_array(id) FROM (SELECT id FROM "studies" ORDER BY ord)) FROM walks w WHERE w.resource = 'studies'`,
  'ALTER TABLE "vendors" ADD COLUMN valid_from INTEGER',
  'ALTER TABLE "staged_vendors" ADD COLUMN valid_from INTEGER',
  `UPDATE "vendors" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'vendors'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT json_group_array(id) FROM (SELECT id FROM "vendors" ORDER BY ord)) FROM walks w WHERE w.resource = 'vendors'`,
  'ALTER TABLE "products" ADD COLUMN valid_from INTEGER',
  'ALTER TABLE "staged_products" ADD COLUMN valid_from INTEGER',
  `UPDATE "products" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'products'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT json_group_array(id) FROM (SELECT id FROM "products" ORDER BY ord)) FROM walks w WHERE w.resource = 'products'`,
  'ALTER TABLE "prices" ADD COLUMN valid_from INTEGER',
  'ALTER TABLE "staged_prices" ADD COLUMN valid_from INTEGER',
  `UPDATE "prices" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'prices'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT json_group_array(id) FROM (SELECT id FROM "prices" ORDER BY ord)) FROM walks w WHERE w.resource = 'prices'`,
  'ALTER TABLE "categories" ADD COLUMN valid_from INTEGER',
  'ALTER TABLE "staged_categories" ADD COLUMN valid_from INTEGER',
  `UPDATE "categories" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'categories'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT json_group_array(id) FROM (SELECT id FROM "categories" ORDER BY ord)) FROM walks w WHERE w.resource = 'categories'`,
  'ALTER TABLE "research_areas" ADD COLUMN valid_from INTEGER',
  'ALTER TABLE "staged_research_areas" ADD COLUMN valid_from INTEGER',
  `UPDATE "research_areas" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'research-areas'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT json_group_array(id) FROM (SELECT id FROM "research_areas" ORDER BY ord)) FROM walks w WHERE w.resource = 'research-areas'`,
];

export const POSTGRES: readonly string[] = [
  `CREATE TABLE item_versions (
  resource text NOT NULL,
  id text NOT NULL,
  item text NOT NULL,
  valid_from bigint NOT NULL,
  valid_to bigint NOT NULL,
  PRIMARY KEY (resource, id, valid_to)
)`,
  "CREATE INDEX item_versions_to ON item_versions (resource, valid_to)",
  `CREATE TABLE _pep_walk_orders (
  resource text NOT NULL,
  sync_id bigint NOT NULL,
  ids text NOT NULL,
  PRIMARY KEY (resource, sync_id)
)`,
  'ALTER TABLE "peptides" ADD COLUMN valid_from bigint',
  `UPDATE "peptides" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'peptides'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT COALESCE('[' || string_agg(to_json(id)::text, ',' ORDER BY ord) || ']', '[]') FROM "peptides") FROM walks w WHERE w.resource = 'peptides'`,
  'ALTER TABLE "studies" ADD COLUMN valid_from bigint',
  `UPDATE "studies" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'studies'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT COALESCE('[' || string_agg(to_json(id)::text, ',' ORDER BY ord) || ']', '[]') FROM "studies") FROM walks w WHERE w.resource = 'studies'`,
  'ALTER TABLE "vendors" ADD COLUMN valid_from bigint',
  `UPDATE "vendors" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'vendors'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT COALESCE('[' || string_agg(to_json(id)::text, ',' ORDER BY ord) || ']', '[]') FROM "vendors") FROM walks w WHERE w.resource = 'vendors'`,
  'ALTER TABLE "products" ADD COLUMN valid_from bigint',
  `UPDATE "products" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'products'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT COALESCE('[' || string_agg(to_json(id)::text, ',' ORDER BY ord) || ']', '[]') FROM "products") FROM walks w WHERE w.resource = 'products'`,
  'ALTER TABLE "prices" ADD COLUMN valid_from bigint',
  `UPDATE "prices" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'prices'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT COALESCE('[' || string_agg(to_json(id)::text, ',' ORDER BY ord) || ']', '[]') FROM "prices") FROM walks w WHERE w.resource = 'prices'`,
  'ALTER TABLE "categories" ADD COLUMN valid_from bigint',
  `UPDATE "categories" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'categories'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT COALESCE('[' || string_agg(to_json(id)::text, ',' ORDER BY ord) || ']', '[]') FROM "categories") FROM walks w WHERE w.resource = 'categories'`,
  'ALTER TABLE "research_areas" ADD COLUMN valid_from bigint',
  `UPDATE "research_areas" SET valid_from = COALESCE((SELECT w.sync_id FROM walks w WHERE w.resource = 'research-areas'), last_sync)`,
  `INSERT INTO _pep_walk_orders (resource, sync_id, ids)
  SELECT w.resource, w.sync_id, (SELECT COALESCE('[' || string_agg(to_json(id)::text, ',' ORDER BY ord) || ']', '[]') FROM "research_areas") FROM walks w WHERE w.resource = 'research-areas'`,
];
