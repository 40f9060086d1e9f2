/**
 * The library's tools of `pep mcp --http --tools library,studies` (online: the group named)
 * with the library in PostgreSQL, read by a role that may only read: library_sql reads and
 * PostgreSQL's READ ONLY transaction refuses a write the first-word check lets through;
 * a study subscribed to over HTTP is told updated when a sync in another run changes it,
 * and library_changes gives that change. Runs against PEP_TEST_PG_URL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, inProcessPep, stopped, scratchIf } from "../helpers/cli.js";
import { type FakeApi, startFakeApi } from "./fake-api.js";
import { PG_URL, requirePgInCi, teamSchema } from "./helpers.js";

const TOKEN = `${"t".repeat(16)}0123456789abcdef`;

describe.skipIf(!PG_URL)("pep mcp --http: the library's tools on PostgreSQL", () => {
  const tmp = scratchIf(Boolean(PG_URL), "pep-mcp-library-pg-");
  const schema = `pep_mcplib_${process.pid}_${Date.now()}`;
  let api: FakeApi;
  let child: ChildProcess | undefined;
  let client: Client;
  let ownerEnv: Record<string, string>;
  const sync = async () => {
    const r = await inProcessPep(["sync", "studies", "-q"], { env: ownerEnv, timeoutMs: 60_000 });
    expect(r.code, r.err).toBe(0);
  };
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

  beforeAll(async () => {
    api = await startFakeApi();
    const { ownerUrl, readUrl } = await teamSchema(schema);
    const base = { ...tmp.env, PEP_BASE_URL: api.base, PEP_API_KEY: "k_test_123456789" };
    ownerEnv = { ...base, PEP_DB: ownerUrl };
    await sync();
    const env = { ...base, PEP_DB: readUrl, PEP_MCP_TOKEN: TOKEN, PEP_MCP_LIBRARY_POLL: "0.05" };
    const url = await new Promise<string>((resolve, reject) => {
      child = spawn(process.execPath, [BIN, "mcp", "--http", "--port", "0", "--tools", "library,studies"], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let err = "";
      child.stderr!.on("data", (c: Buffer) => {
        err += c.toString("utf8");
        const m = /serving Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(err);
        if (m && /client configuration:\n.*\n/.test(err)) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`pep mcp --http exited ${code}: ${err}`)));
    });
    client = new Client({ name: "pg-test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
  }, 90_000);
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await stopped(child);
    await api?.close();
    if (PG_URL) {
      const pg = (await import("pg")).default;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    tmp.cleanup();
  });

  it("library_sql reads; PostgreSQL refuses a write the first word lets through", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["library_sql", "library_changes", "list_studies"]));
    expect(names).not.toContain("get_peptide");
    const r = await call("library_sql", { query: "SELECT COUNT(*) AS n FROM studies" });
    expect(r.isError, text(r)).toBeFalsy();
    expect((r.structuredContent as { rows: unknown[] }).rows).toEqual([{ n: 250 }]);
    const write = await call("library_sql", { query: "WITH x AS (DELETE FROM studies RETURNING 1) SELECT * FROM x" });
    expect(write.isError).toBe(true);
    expect(text(write)).toMatch(/only reads|read-only|permission denied/);
  });

  it("a subscribed study is told updated over HTTP when a sync changes it", async () => {
    await call("library_changes", { limit: 1000 }); // the session's bookmark, at the first sync's end
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri));
    });
    await client.subscribeResource({ uri: "pep://studies/pmid-1003" });
    api.lists.studies![3]!.title = "Study 3, retitled";
    await sync();
    expect(await updated).toBe("pep://studies/pmid-1003");
    const next = await call("library_changes", {});
    const items = (next.structuredContent as { items: Array<Record<string, unknown>> }).items;
    expect(items.map((c) => [c.id, c.kind, c.field])).toEqual([["pmid-1003", "changed", "title"]]);
  }, 60_000);
});

requirePgInCi();
