/**
 * A list that fails on a terminal, with the default pager (`less -FRX`, chosen because no
 * PEP_PAGER or PAGER is set): the error is printed and the run exits with its code, as it
 * does without a pager. Only the user's own quit ends a paged list quietly (pager.test.ts).
 * Spawns the real executable on a pseudo-terminal (util-linux `script`), since the pager
 * and the terminal are what is under test.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isBuilt, scratch } from "../helpers/cli.js";
import { envelope, errorBody, sendJson, startServer, type TestServer, unusedPort } from "../helpers/server.js";
import { hasScript, onTerminal, screenLines, visible } from "../helpers/terminal.js";

const hasLess = spawnSync("less", ["--version"]).status === 0;
/** Every variable that would choose a pager other than the default. */
const UNSET = ["PEP_PAGER", "PAGER", "PEP_NO_PAGER", "NO_COLOR"];
const KEY = "pk_test_pagerfailures0000000000";

/** The list commands, with the key the vendor ones need. */
const LISTS: { argv: string[]; keyed?: boolean }[] = [
  { argv: ["peptides", "list"] },
  { argv: ["peptides", "studies", "brevritarin-81"] },
  { argv: ["studies", "list"] },
  { argv: ["categories"] },
  { argv: ["research-areas"] },
  { argv: ["vendors", "list"], keyed: true },
  { argv: ["prices"], keyed: true },
  { argv: ["products"], keyed: true },
  { argv: ["studies", "list", "-o", "json"] },
];

const item = (n: number) => ({
  id: `item-${n}`,
  slug: `item-${n}`,
  name: `Item ${n}`,
  title: `Title ${n}`,
  publication_year: 2020,
});

/**
 * A server whose every list answers as `mode` says: `bad` a 400, `scope` a 403, `midway`
 * a first page of three items and then a 503 for the next.
 */
function failingApi(mode: "bad" | "scope" | "midway"): Promise<TestServer> {
  return startServer((req, res) => {
    if (mode === "bad") return sendJson(res, 400, errorBody("invalid_parameter", "limit is not valid", "req_bad"));
    if (mode === "scope")
      return sendJson(res, 403, errorBody("insufficient_scope", "this key lacks the scope", "req_scope"));
    if (req.query.get("cursor") === null)
      return sendJson(
        res,
        200,
        envelope([item(1), item(2), item(3)], { pagination: { next_cursor: "page-2", has_more: true } }),
      );
    return sendJson(res, 503, errorBody("service_unavailable", "down for maintenance", "req_down"));
  });
}

/** The error as a line `error: …` on a terminal, or (under -o json) as the JSON error object. */
function saidAsError(text: string, argv: string[], code: string, what: string): void {
  if (!argv.includes("json")) {
    expect(text, what).toMatch(/^error: /m);
    return;
  }
  const line = text.split("\n").find((l) => l.startsWith('{"error"'));
  expect(line, what).toBeDefined();
  expect(JSON.parse(line!).error.code, what).toBe(code);
}

interface Outcome {
  code: number | null;
  text: string;
}

async function onPagedTerminal(argv: string[], base: string, keyed = false): Promise<Outcome> {
  const tmp = scratch("pep-pager-fail-");
  try {
    const env: Record<string, string> = { ...tmp.env };
    if (keyed) env.PEP_API_KEY = KEY;
    const r = await onTerminal(["--base-url", base, "--no-retry", "--no-cache", ...argv], env, { unset: UNSET });
    return { code: r.code, text: screenLines(visible(r.screen)).join("\n") };
  } finally {
    tmp.cleanup();
  }
}

describe.skipIf(!hasScript || !hasLess || !isBuilt())("a failing list on a terminal with the default pager", () => {
  it("a refused connection: every list command says so and exits 6", async () => {
    const base = `http://127.0.0.1:${await unusedPort()}/v1`;
    const runs = await Promise.all(LISTS.map((l) => onPagedTerminal(l.argv, base, l.keyed)));
    runs.forEach((r, i) => {
      const what = `${LISTS[i]!.argv.join(" ")}:\n${r.text}`;
      expect(r.code, what).toBe(6);
      expect(r.text, what).toMatch(/could not connect to 127\.0\.0\.1:\d+: connection refused/);
      saidAsError(r.text, LISTS[i]!.argv, "network_error", what);
    });
  });

  it("a 400 is said with exit 2, a 403 with exit 3, on every list", async () => {
    const bad = await failingApi("bad");
    const scope = await failingApi("scope");
    try {
      const runs = await Promise.all([
        ...LISTS.map((l) => onPagedTerminal(l.argv, `${bad.url}/v1`, l.keyed)),
        ...LISTS.filter((l) => l.keyed).map((l) => onPagedTerminal(l.argv, `${scope.url}/v1`, true)),
      ]);
      const keyed = LISTS.filter((l) => l.keyed);
      runs.forEach((r, i) => {
        const denied = i >= LISTS.length;
        const l = denied ? keyed[i - LISTS.length]! : LISTS[i]!;
        const what = `${l.argv.join(" ")} (${denied ? "403" : "400"}):\n${r.text}`;
        expect(r.code, what).toBe(denied ? 3 : 2);
        expect(r.text, what).toContain(denied ? "this key lacks the scope" : "limit is not valid");
        saidAsError(r.text, l.argv, denied ? "insufficient_scope" : "invalid_parameter", what);
      });
    } finally {
      await bad.close();
      await scope.close();
    }
  });

  it("an error after the first page: the page shown, then the error, where to go on, exit 6", async () => {
    const srv = await failingApi("midway");
    try {
      for (const argv of [
        ["studies", "list", "--all"],
        ["peptides", "list", "--all"],
      ]) {
        const r = await onPagedTerminal(argv, `${srv.url}/v1`);
        const what = `${argv.join(" ")}:\n${r.text}`;
        expect(r.code, what).toBe(6);
        expect(r.text, what).toContain("item-3");
        expect(r.text, what).toContain("down for maintenance");
        expect(r.text.replace(/\s*\n\s*/g, " "), what).toMatch(/to resume: pep .*--cursor=page-2/);
      }
    } finally {
      await srv.close();
    }
  });

  it("an --offline list with no library says so, exit 2", async () => {
    const tmp = scratch("pep-pager-fail-");
    try {
      const db = `${tmp.dir}/none.db`;
      const r = await onTerminal(["--offline", "--db", db, "peptides", "list"], tmp.env, { unset: UNSET });
      const text = screenLines(visible(r.screen)).join("\n");
      expect(r.code, text).toBe(2);
      expect(text).toMatch(/^error: /m);
    } finally {
      tmp.cleanup();
    }
  });

  it("the README's did-you-mean: a 404 with its suggestion, exit 4", async () => {
    const tmp = scratch("pep-pager-fail-");
    try {
      const r = await onTerminal(["--sandbox", "prices", "--peptide", "brevritarin"], tmp.env, { unset: UNSET });
      const text = screenLines(visible(r.screen)).join("\n");
      expect(r.code, text).toBe(4);
      expect(text).toContain("error: no peptide matches 'brevritarin'");
      expect(text).toContain("Did you mean `brevritarin-81`?");
    } finally {
      tmp.cleanup();
    }
  });
});
