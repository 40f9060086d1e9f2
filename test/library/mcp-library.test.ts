/**
 * `pep mcp --offline` and its library tools with the SDK's Client, over stdio in-process,
 * against a library `pep sync` filled from a loopback API whose data the test changes:
 * offline answers say the time of the walk that answered; library_sql reads as pep sql
 * does and the engine refuses a write that passes the first-word check; library_changes
 * keeps a bookmark per session; a subscribed study is told updated when a sync in
 * another run changes it, and the server answers from that sync from then on. Needs
 * node:sqlite: skipped on Node 20 only.
 */
import path from "node:path";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessPep, scratchIf } from "../helpers/cli.js";
import { startMcp, textOf, type McpSession } from "../helpers/mcp-client.js";
import { type FakeApi, startFakeApi } from "./fake-api.js";
import { hasSqlite, libraryEnv } from "./helpers.js";

describe.skipIf(!hasSqlite())("pep mcp: the library as tools and resources", () => {
  const tmp = scratchIf(hasSqlite(), "pep-mcp-library-");
  let api: FakeApi;
  let env: Record<string, string>;
  let mcp: McpSession;
  let firstSynced = "";
  const sync = async () => {
    const r = await inProcessPep(["sync", "-q"], { env, timeoutMs: 60_000 });
    expect(r.code, r.err).toBe(0);
  };
  const structured = (r: { structuredContent?: unknown }) => r.structuredContent as Record<string, unknown>;

  beforeAll(async () => {
    api = await startFakeApi();
    env = libraryEnv(api, tmp, { PEP_MCP_LIBRARY_POLL: "0.05" });
    await sync();
    mcp = await startMcp(["--offline"], env);
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
    await api?.close();
    tmp.cleanup();
  });

  it("lists the library's tools offline, and each offline answer says when its walk ended", async () => {
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["library_sql", "library_changes", "list_studies"]));
    expect(mcp.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const r = await mcp.call("list_studies", { limit: 2 });
    expect(r.isError, textOf(r)).toBeFalsy();
    const synced = structured(r).synced;
    expect(synced).toMatch(/^\d{4}-\d\d-\d\dT/);
    firstSynced = String(synced);
    expect(textOf(r).split("\n")[0]).toBe(`From the local library, synced ${synced} (not the API).`);
    const more = await mcp.call("list_studies", { limit: 1, cursor: structured(r).next_cursor });
    expect(structured(more).synced).toBe(synced);
    // What the library cannot answer is refused as the command line refuses it, with no synced time.
    const refused = await mcp.call("list_studies", { search: "x" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^error: offline: the library cannot answer the search parameter/m);
  });

  it("every tool either answers with the time its walk ended or is refused as offline cannot answer it", async () => {
    const args: Record<string, Record<string, unknown>> = {
      search: { q: "pep" },
      get_peptide: { slug: "pep-0" },
      peptide_studies: { slug: "pep-0" },
      peptide_research: { slug: "pep-0" },
      regulatory_status: { slug: "pep-0" },
      get_study: { id: "pmid-1001" },
      get_vendor: { id: "vnd_1" },
      vendor_shipping: { id: "vnd_1" },
      compare_vendors: { ids: ["vnd_1", "v-one"] },
    };
    const tools = (await mcp.client.listTools()).tools.filter((t) => !t.name.startsWith("library_"));
    const answered: string[] = [];
    for (const t of tools) {
      const r = await mcp.call(t.name, args[t.name] ?? {});
      if (r.isError) expect(textOf(r), t.name).toMatch(/^error: (offline: |.*not in the library|the library holds)/m);
      else {
        expect(structured(r).synced, t.name).toMatch(/^\d{4}-/);
        answered.push(t.name);
      }
    }
    expect(answered).toEqual(expect.arrayContaining(["list_peptides", "get_peptide", "list_vendors", "list_prices"]));
  });

  it("library_sql reads as pep sql does; a write is refused by the engine", async () => {
    const r = await mcp.call("library_sql", { query: "SELECT id, title FROM studies ORDER BY ord", limit: 3 });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(structured(r)).toMatchObject({ columns: ["id", "title"], count: 3, truncated: true, sandbox: false });
    const cli = await inProcessPep(["sql", "SELECT id, title FROM studies ORDER BY ord LIMIT 3", "-o", "json"], {
      env,
    });
    expect(structured(r).rows).toEqual(JSON.parse(cli.out));
    // WITH passes the first-word check; the engine refuses the DELETE.
    const write = await mcp.call("library_sql", { query: "WITH x AS (SELECT 1) DELETE FROM studies" });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(/only reads/);
    expect(structured(await mcp.call("library_sql", { query: "SELECT COUNT(*) AS n FROM studies" })).rows).toEqual([
      { n: 250 },
    ]);
  });

  it("a client that reads only the text reads every row and every change, each once", async () => {
    const body = (r: unknown) =>
      JSON.parse(
        textOf(r as never)
          .split("\n")
          .at(-1)!,
      ) as Record<string, unknown>;
    const ids: string[] = [];
    let offset = 0;
    let calls = 0;
    for (; calls < 20; calls++) {
      const query = `SELECT id, item FROM studies ORDER BY ord LIMIT 1000 OFFSET ${offset}`;
      const r = await mcp.call("library_sql", { query, limit: 1000 });
      const rows = body(r).rows as Array<{ id: string }>;
      ids.push(...rows.map((row) => row.id));
      const on = /read on with OFFSET (\d+)/.exec(textOf(r));
      if (!on) break;
      offset += Number(on[1]);
    }
    expect(calls).toBeGreaterThan(0);
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
  });

  it("the table list is a resource: tables, columns and types", async () => {
    const res = await mcp.client.readResource({ uri: "pep://library/tables" });
    const body = JSON.parse(String((res.contents[0] as { text: string }).text)) as {
      tables: Array<{ table: string; columns: Array<{ column: string; type: string }> }>;
    };
    const studies = body.tables.find((t) => t.table === "studies");
    expect(studies?.columns.map((c) => c.column)).toEqual(expect.arrayContaining(["id", "item", "ord"]));
    expect(studies?.columns.every((c) => c.type !== "")).toBe(true);
  });

  it("a subscribed study is told updated when a sync elsewhere changes it; library_changes continues from its bookmark", async () => {
    const first = await mcp.call("library_changes", { limit: 200, resource: "studies" });
    expect(first.isError, textOf(first)).toBeFalsy();
    // The first sync added every study: a session's first call reads the last sync's changes, then its bookmark.
    expect(structured(first)).toMatchObject({ count: 200, has_more: true });
    expect(structured(await mcp.call("library_changes", { resource: "studies" }))).toMatchObject({
      count: 50,
      has_more: false,
    });
    const told: string[] = [];
    const updated = new Promise<void>((resolve) => {
      mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        told.push(n.params.uri);
        resolve();
      });
    });
    await mcp.client.subscribeResource({ uri: "pep://studies/pmid-1001" });
    await mcp.client.subscribeResource({ uri: "pep://studies/pmid-1002" });
    api.lists.studies![1]!.title = "Study 1, retitled";
    await sync();
    await updated;
    expect(told).toEqual(["pep://studies/pmid-1001"]);
    const next = await mcp.call("library_changes", { resource: "studies" });
    expect((structured(next).items as Array<Record<string, unknown>>).map((c) => [c.id, c.kind, c.field])).toEqual([
      ["pmid-1001", "changed", "title"],
    ]);
    // The server answers from the newer sync from now on.
    const again = await mcp.call("list_studies", { limit: 2 });
    expect(JSON.stringify(structured(again).items)).toContain("Study 1, retitled");
    expect(String(structured(again).synced) > firstSynced).toBe(true);
    await expect(mcp.client.subscribeResource({ uri: "pep://elsewhere/1" })).rejects.toThrow(/only pep:\/\/peptides/);
  }, 30_000);
  it("--offline --sandbox answers from the sandbox's own library, as pep --offline --sandbox does", async () => {
    const own = { ...tmp.env, PEP_DATA_DIR: path.join(tmp.dir, "sandbox-data") };
    const filled = await inProcessPep(["--sandbox", "sync", "categories", "-q"], { env: own, timeoutMs: 60_000 });
    expect(filled.code, filled.err).toBe(0);
    const sb = await startMcp(["--offline", "--sandbox"], own);
    try {
      const r = await sb.call("list_categories", { limit: 2 });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(structured(r)).toMatchObject({ count: 2 });
      expect(structured(r).synced).toMatch(/^\d{4}-/);
      const cli = await inProcessPep(["--offline", "--sandbox", "categories", "--limit", "2", "-o", "json"], {
        env: own,
      });
      expect(structured(r).items).toEqual(JSON.parse(cli.out));
    } finally {
      await sb.close();
    }
  });
});
