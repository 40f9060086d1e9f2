// Helpers of the library bench (scripts/bench/library.mjs), each in its own process:
//   node library-fill.mjs sqlite <file> <n>      copy studies rows under new ids up to n rows
//   node library-fill.mjs postgres <url> <n>     the same in PostgreSQL
//   node library-fill.mjs schema <url> <name>    create an empty schema
import pg from "pg";

const [what, where, arg] = process.argv.slice(2);

/** INSERT … SELECT of the original rows with `~k` ids, round k, until `n` rows. */
function copies(columns, k, limit) {
  const rest = columns.filter((c) => c !== "id" && c !== "ord");
  const list = rest.map((c) => `"${c}"`).join(", ");
  return `INSERT INTO studies (id, ord, ${list}) SELECT id || '~${k}', ord + ${k * 1_000_000}, ${list} FROM studies WHERE id NOT LIKE '%~%' ORDER BY ord LIMIT ${limit}`;
}

/** Whether every page of studies is marked all-visible. */
async function atRest(client) {
  const { rows } = await client.query(
    "SELECT relallvisible >= relpages AS ok FROM pg_class WHERE oid = 'studies'::regclass",
  );
  return rows[0].ok === true;
}

if (what === "sqlite") {
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const db = new DatabaseSync(where);
  const columns = db
    .prepare("PRAGMA table_info(studies)")
    .all()
    .map((c) => c.name);
  const count = () => Number(db.prepare("SELECT COUNT(*) AS n FROM studies").get().n);
  db.exec("BEGIN");
  for (let k = 1; count() < Number(arg); k++) db.exec(copies(columns, k, Number(arg) - count()));
  db.exec("COMMIT");
  db.exec("ANALYZE");
  db.close();
} else {
  const client = new pg.Client({ connectionString: where });
  await client.connect();
  if (what === "schema") await client.query(`CREATE SCHEMA "${arg}"`);
  else {
    const columns = (
      await client.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'studies' AND is_generated = 'NEVER'",
      )
    ).rows.map((r) => r.column_name);
    const count = async () => Number((await client.query("SELECT COUNT(*) AS n FROM studies")).rows[0].n);
    for (let k = 1; (await count()) < Number(arg); k++)
      await client.query(copies(columns, k, Number(arg) - (await count())));
    // As autovacuum leaves a table at rest: statistics and the visibility map (index-only scans).
    // A page is marked all-visible only when no open transaction could still miss its rows,
    // and autovacuum's ANALYZE of the tables the sync just filled holds a snapshot: a VACUUM
    // beside it left four fifths of the table unmarked, and the count read the heap (100 ms
    // instead of 17). So it waits for other snapshots to end and vacuums again, a few times.
    await client.query("VACUUM ANALYZE studies");
    for (let i = 0; i < 20 && !(await atRest(client)); i++) {
      await new Promise((r) => setTimeout(r, 250));
      await client.query("VACUUM studies");
    }
    if (!(await atRest(client)))
      console.error("library-fill: studies is not all-visible; the count will read the heap");
  }
  await client.end();
}
