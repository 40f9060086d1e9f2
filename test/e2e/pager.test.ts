/**
 * The pager, on a real terminal (a pseudo-terminal from util-linux `script`) with pagers
 * that are small shell scripts: one that keeps what it read and exits at the end, one
 * that quits after the first line as a reader pressing q would. Quitting ends the run
 * with exit 0, quietly, and the server sees no further page requests.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isBuilt, scratch, spawnPep } from "../helpers/cli.js";
import { delay, envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";
import { hasScript, onTerminal, screenLines } from "../helpers/terminal.js";

const TOTAL = 4000;
const study = (n: number) => ({ id: `pmid-${90000000 + n}`, title: `Study ${n}`, publication_year: 2020 });
/** 4,000 studies, pages as large as asked (at most 100), each page a little slow. */
const manyStudies = (): Promise<TestServer> =>
  startServer({
    "/v1/studies": async (req, res) => {
      const offset = Number(req.query.get("cursor") ?? "0");
      const size = Math.min(100, Number(req.query.get("limit") ?? "100"));
      await delay(100);
      const items = Array.from({ length: Math.min(size, TOTAL - offset) }, (_, i) => study(offset + i + 1));
      const next = offset + size < TOTAL ? String(offset + size) : null;
      sendJson(res, 200, envelope(items, { pagination: { next_cursor: next, has_more: next !== null } }));
    },
  });
/** Colours are kept for the pager (less -R shows them); the tests read the text. */
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
const pageRequests = (srv: TestServer) => srv.requests.filter((r) => r.path === "/v1/studies").length;

/** Pager scripts in `dir`: `keep` stores all it reads; `quit` reads one line and exits. */
function pagers(dir: string) {
  const keep = path.join(dir, "keep-pager");
  const quit = path.join(dir, "quit-pager");
  writeFileSync(keep, `#!/bin/sh\ncat > '${dir}/paged.txt'\n`);
  writeFileSync(quit, `#!/bin/sh\nhead -n 1 > '${dir}/paged.txt'\nexit 0\n`);
  chmodSync(keep, 0o755);
  chmodSync(quit, 0o755);
  return { keep, quit, paged: path.join(dir, "paged.txt") };
}

describe.skipIf(!hasScript || !isBuilt())("the pager on a terminal", () => {
  it("quitting the pager ends the run with exit 0, quietly, and stops fetching", async () => {
    const srv = await manyStudies();
    const tmp = scratch("pep-pager-");
    try {
      const p = pagers(tmp.dir);
      const r = await onTerminal(["studies", "list", "--all", "--base-url", `${srv.url}/v1`, "--no-cache"], {
        ...tmp.env,
        PEP_PAGER: p.quit,
      });
      expect(r.code, r.screen).toBe(0);
      expect(plain(readFileSync(p.paged, "utf8"))).toMatch(/^ID\s+YEAR\s+TITLE/);
      // No error, no "interrupted": only, right after the pager, where to go on from (the
      // start of the page the pager stopped in, which it may not have shown whole).
      const shown = screenLines(r.screen).filter((l) => l.trim() !== "");
      const told = shown.join(" ");
      expect(told, r.screen).toMatch(/^to continue \(from item (1|101)\): pep studies list --all .*--cursor=/);
      expect(told).not.toMatch(/error|interrupted/);
      const seen = pageRequests(srv);
      // The run has exited: a request it sent before would be in by now.
      await delay(50);
      expect(pageRequests(srv)).toBe(seen);
      // The first page filled the pager's screen; at most the one in flight when it quit followed.
      expect(seen).toBeLessThanOrEqual(2);
    } finally {
      tmp.cleanup();
      await srv.close();
    }
  });

  it("a pager that reads to the end gets the whole table; notices come after it", async () => {
    const srv = await manyStudies();
    const tmp = scratch("pep-pager-");
    try {
      const p = pagers(tmp.dir);
      const r = await onTerminal(["studies", "list", "--limit", "60", "--base-url", `${srv.url}/v1`, "--no-cache"], {
        ...tmp.env,
        PAGER: p.keep,
      });
      expect(r.code, r.screen).toBe(0);
      const paged = plain(readFileSync(p.paged, "utf8")).trimEnd().split("\n");
      expect(paged).toHaveLength(61);
      expect(paged[60]).toMatch(/^pmid-90000060\s/);
      // The cursor hint went to the terminal once the pager had finished.
      expect(r.screen.replace(/\r?\n/g, " ")).toMatch(/to continue \(after item 60\): pep studies list .*--cursor=60/);
      expect(r.screen).not.toContain("pmid-90000001");
    } finally {
      tmp.cleanup();
      await srv.close();
    }
  });

  it("no pager with --no-pager, with stdout not a terminal, or with PEP_PAGER=cat; the profile's pager key is used", async () => {
    const srv = await manyStudies();
    const tmp = scratch("pep-pager-");
    try {
      const p = pagers(tmp.dir);
      const argv = ["studies", "list", "--limit", "3", "--base-url", `${srv.url}/v1`, "--no-cache"];
      const off = await onTerminal([...argv, "--no-pager"], { ...tmp.env, PEP_PAGER: p.keep });
      expect(off.code).toBe(0);
      expect(off.screen).toContain("pmid-90000003");
      expect(existsSync(p.paged)).toBe(false);
      const piped = await onTerminal(argv, { ...tmp.env, PEP_PAGER: p.keep }, { redirect: `> '${tmp.dir}/out.json'` });
      expect(piped.code).toBe(0);
      expect(JSON.parse(readFileSync(path.join(tmp.dir, "out.json"), "utf8"))).toHaveLength(3);
      expect(existsSync(p.paged)).toBe(false);
      const cat = await onTerminal(argv, { ...tmp.env, PEP_PAGER: "cat", PAGER: p.keep });
      expect(cat.screen).toContain("pmid-90000003");
      expect(existsSync(p.paged)).toBe(false);

      const set = await spawnPep(["config", "set", "pager", p.keep], { env: tmp.env });
      expect(set.code, set.err).toBe(0);
      const profile = await onTerminal(argv, { ...tmp.env, PAGER: "cat" });
      expect(profile.code, profile.screen).toBe(0);
      expect(readFileSync(p.paged, "utf8")).toContain("pmid-90000003");
    } finally {
      tmp.cleanup();
      await srv.close();
    }
  });

  it("a pager that cannot be started is said once, and the output is printed without it", async () => {
    const srv = await manyStudies();
    const tmp = scratch("pep-pager-");
    try {
      const r = await onTerminal(["studies", "list", "--limit", "2", "--base-url", `${srv.url}/v1`, "--no-cache"], {
        ...tmp.env,
        PEP_PAGER: "/nonexistent/pager -x",
      });
      expect(r.code, r.screen).toBe(0);
      expect(r.screen).toContain(
        'warning: cannot run the pager "/nonexistent/pager -x" (from PEP_PAGER); printing without it',
      );
      expect(r.screen).toContain("pmid-90000002");
    } finally {
      tmp.cleanup();
      await srv.close();
    }
  });
});
