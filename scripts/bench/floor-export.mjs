// The floor for an export: the least a Node program must do to write every study as
// NDJSON. It follows the cursors over one keep-alive undici pool and writes each page's
// lines in one write, with no checks, no retries and no formatting.
// Usage: node floor-export.mjs <base-url> <limit> <page-size>   (key from PEP_API_KEY)
import { Agent, request } from "undici";

const [baseUrl, limitArg, pageArg] = process.argv.slice(2);
const limit = Number(limitArg);
const pageSize = Number(pageArg);
const agent = new Agent({ connections: 1 });
const headers = { accept: "application/json", authorization: `Bearer ${process.env.PEP_API_KEY}` };

let cursor;
let written = 0;
while (written < limit) {
  const url = new URL(`${baseUrl}/studies`);
  url.searchParams.set("limit", String(Math.min(pageSize, limit - written)));
  if (cursor) url.searchParams.set("cursor", cursor);
  const res = await request(url, { dispatcher: agent, headers });
  const body = await res.body.json();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  let out = "";
  for (const item of body.data) out += `${JSON.stringify(item)}\n`;
  written += body.data.length;
  if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once("drain", r));
  cursor = body.pagination?.has_more ? body.pagination.next_cursor : undefined;
  if (!cursor) break;
}
await agent.close();
