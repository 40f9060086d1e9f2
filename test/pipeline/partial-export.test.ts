/**
 * A --file export cut short keeps its whole pages in <file>.partial, and only the same
 * command (same words, base URL, profile and format) goes on from it: another command
 * replaces it, --restart drops it, and a cursor the API no longer accepts starts over.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep } from "../helpers/cli.js";
import { faults, startFaultApi, type FaultApi } from "../helpers/fault-api.js";
import { parseCsv } from "../helpers/formats.js";
import { sendJson } from "../helpers/server.js";

let api: FaultApi;
let dir: string;
const target = () => path.join(dir, "out.csv");

beforeAll(async () => {
  api = await startFaultApi({ total: 23 });
  dir = mkdtempSync(path.join(os.tmpdir(), "pep-partial-"));
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  api.heal();
  for (const f of [target(), `${target()}.partial`, `${target()}.partial.json`]) rmSync(f, { force: true });
});

const env = () => ({ PEP_CONFIG_DIR: path.join(dir, "config"), PEP_CACHE_DIR: path.join(dir, "cache") });
const base = (more: string[] = []) => [
  "studies",
  "list",
  "--page-size",
  "5",
  "--retries",
  "0",
  "--base-url",
  api.baseUrl,
  "--file",
  target(),
  ...more,
];
const pep = (argv: string[]) => runPep(argv, { env: env(), cwd: dir });
const ids = (file: string) => parseCsv(readFileSync(file, "utf8")).map((r) => r.id);

/** Runs `argv` with the page at item 10 failing: leaves a partial of 10 items. */
async function cutShort(argv: string[]) {
  api.fault(api.cursorAt(10), faults.status(503));
  const r = await pep(argv);
  expect(r.code, r.err).toBe(6);
  api.heal();
  expect(ids(`${target()}.partial`)).toHaveLength(10);
  return r;
}

describe("a partial --file export", () => {
  it("keeps its state private (0600) and goes on with what is left of a --limit", async () => {
    await cutShort(base(["--limit", "17"]));
    expect(statSync(`${target()}.partial.json`).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(`${target()}.partial.json`, "utf8"))).toMatchObject({ remaining: 7, items: 10 });
    const r = await pep(base(["--limit", "17"]));
    expect(r.code, r.err).toBe(0);
    expect(ids(target())).toEqual(api.items.slice(0, 17).map((s) => s.id));
  });

  it("made by another command, base URL or profile is replaced, with a notice, never continued", async () => {
    await cutShort(base(["--all"]));
    const r = await pep(base(["--all", "--year-from", "2001"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /starting over: .*out\.csv\.partial was made by another command \(its filters, format, --jq, --fields, base URL or profile differ\); dropped it/,
    );
    expect(existsSync(`${target()}.partial`)).toBe(false);
    expect(ids(target())[0]).toBe(api.items[0]!.id);
  });

  it("--restart drops it and starts from the first page", async () => {
    await cutShort(base(["--all"]));
    const r = await pep(base(["--all", "--restart"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/starting over \(--restart\): dropped .*out\.csv\.partial/);
    expect(ids(target())).toEqual(api.items.map((s) => s.id));
  });

  it("whose stored cursor the API refuses (400) starts over from the first page, with a notice", async () => {
    await cutShort(base(["--all"]));
    api.fault(
      api.cursorAt(10),
      (req, res) =>
        sendJson(res, 400, {
          error: { code: "invalid_cursor", message: "cursor expired", request_id: `r${req.index}` },
        }),
      1,
    );
    const r = await pep(base(["--all"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /starting over from the first page: the API refused the stored cursor \(HTTP 400\); dropped .*out\.csv\.partial/,
    );
    expect(ids(target())).toEqual(api.items.map((s) => s.id));
    expect(existsSync(`${target()}.partial`)).toBe(false);
  });

  it("is not touched by a run to another file, and a run that fails again keeps the growing partial", async () => {
    writeFileSync(path.join(dir, "other.csv"), "x\n");
    await cutShort(base(["--all"]));
    api.fault(api.cursorAt(15), faults.reset());
    const again = await pep(base(["--all"]));
    expect(again.code).toBe(6);
    expect(ids(`${target()}.partial`)).toHaveLength(15);
    expect(again.err).toMatch(/the 15 items fetched so far are kept in/);
    api.heal();
    const done = await pep(base(["--all"]));
    expect(done.code, done.err).toBe(0);
    expect(ids(target())).toEqual(api.items.map((s) => s.id));
  });
});
