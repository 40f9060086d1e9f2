/**
 * A client that passes only a result's text to the model loses no item: a list's text is
 * bounded, and when it holds fewer items than the call returned, the cursor it gives
 * continues from the first one it left out. A client reading only the text pages through
 * 1,000 vendors of a loopback API (items of about 900 characters, so a page of 100 does
 * not fit in one text) and sees each exactly once, in order; a client reading the
 * structured result pages with next_cursor and sees the same. In-process, over stdio,
 * with the SDK's Client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageBody } from "../helpers/fault-api.js";
import { scratch } from "../helpers/cli.js";
import { startMcp, textOf, type McpSession } from "../helpers/mcp-client.js";
import { sendJson, startServer, type TestServer } from "../helpers/server.js";

const TOTAL = 1000;
const vendors = Array.from({ length: TOTAL }, (_, i) => ({
  id: `v${String(i).padStart(4, "0")}`,
  slug: `vendor-${i}`,
  name: `Vendor ${i}`,
  description: `Vendor ${i} `.padEnd(860, "."),
}));

const tmp = scratch("pep-mcp-text-");
let api: TestServer;
let mcp: McpSession;

beforeAll(async () => {
  api = await startServer({
    "/v1/vendors": (req, res) => sendJson(res, 200, pageBody(req, vendors)),
  });
  mcp = await startMcp([], { ...tmp.env, PEP_BASE_URL: `${api.url}/v1`, PEP_API_KEY: "k_text_paging_0123456789" });
});
afterAll(async () => {
  await mcp?.close();
  await api?.close();
  tmp.cleanup();
});

/** What a text-only client can read: the items of the text's JSON, and the cursor its first line gives. */
function readText(text: string): { ids: string[]; cursor: string | undefined; first: string } {
  const lines = text.split("\n");
  const json = JSON.parse(lines[lines.length - 1]!) as { items: Array<{ id: string }> };
  const cursor = /cursor ("(?:[^"\\]|\\.)*")/.exec(lines[0]!)?.[1];
  return {
    ids: json.items.map((v) => v.id),
    cursor: cursor === undefined ? undefined : JSON.parse(cursor),
    first: lines[0]!,
  };
}

describe("pep mcp: a list's text never loses items", () => {
  it("a text-only client pages through 1,000 vendors and sees each once, in order", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    let cut = 0;
    for (;;) {
      const r = await mcp.call("list_vendors", { limit: 100, ...(cursor ? { cursor } : {}) });
      expect(r.isError, textOf(r)).toBeFalsy();
      const page = readText(textOf(r));
      if (page.ids.length < (r.structuredContent as { count: number }).count) cut++;
      seen.push(...page.ids);
      calls++;
      if (page.cursor === undefined) {
        expect(page.first).toMatch(/This is the end of the list\.$/);
        break;
      }
      cursor = page.cursor;
      expect(calls).toBeLessThan(40);
    }
    expect(cut, "the text should have been bounded").toBeGreaterThan(0);
    expect(seen).toEqual(vendors.map((v) => v.id));
  });

  it("a client of the structured result pages with next_cursor and sees the same 1,000", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let calls = 0; calls < 20; calls++) {
      const r = await mcp.call("list_vendors", { limit: 100, ...(cursor ? { cursor } : {}) });
      const s = r.structuredContent as { items: Array<{ id: string }>; next_cursor: string | null };
      seen.push(...s.items.map((v) => v.id));
      if (s.next_cursor === null) break;
      cursor = s.next_cursor;
    }
    expect(seen).toEqual(vendors.map((v) => v.id));
  });

  it("a cursor that is not one the server gave is a tool error naming the argument", async () => {
    const r = await mcp.call("list_vendors", { cursor: "pep-text.not-base64-json" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^error: cursor is not one this server gave/m);
  });
});
