/**
 * A loopback API whose text is hostile: every name, url, title, author, vendor field,
 * error message and unknown field carries terminal control sequences (CSI, OSC 8 links,
 * OSC 52 clipboard writes, BEL, backspace, carriage return, C1 controls, bidi
 * overrides). Built on `startServer`; the shapes are the spec's envelopes.
 *
 *   const api = await startHostileApi();
 *   const r = await inProcessPep(["peptides", "list", "-o", "table"], { env: { PEP_BASE_URL: api.baseUrl } });
 *   expectInert(r.out);
 *
 * Every hostile value starts with a readable tag (`PEPNAME`, `STUDYTITLE`, …) and ends
 * with `<tag>-END`, so a test can check the text is still there once made inert.
 */
import { spawn, spawnSync } from "node:child_process";
import type { ServerResponse } from "node:http";
import { expect } from "vitest";
import { BIN, ROOT, type PepRun } from "./cli.js";
import { envelope, sendJson, startServer, type RecordedRequest, type TestServer } from "./server.js";

/** The sequences an attacker controlling API text might send, each as it would be sent. */
export const SEQUENCES = {
  clearScreen: "\x1b[2J\x1b[H",
  sgrRed: "\x1b[31m",
  osc8Link: "\x1b]8;;http://evil.test/\x07click\x1b]8;;\x07",
  osc52Clipboard: "\x1b]52;c;ZWNobyBwd25lZA==\x07",
  bell: "\x07",
  backspace: "\x08\x08\x08",
  carriageReturn: "\r",
  c1Csi: "\u009b2J",
  c1Osc: "\u009d0;TITLEGRAB\u009c",
  bidiOverride: "\u202e",
  bidiIsolate: "\u2066",
  nulDel: "\x00\x7f",
} as const;

/** All of them in one run, between readable words. */
export const PAYLOAD = Object.values(SEQUENCES).join(" ");

/** A hostile value: `<tag>`, every sequence, `<tag>-END`. */
export const hostile = (tag: string): string => `${tag} ${PAYLOAD} ${tag}-END`;

/** What must never be seen in output, once pep's own sequences are taken out. */
export const LEAKED_TEXT = ["evil.test", "ZWNobyBwd25lZA", "TITLEGRAB"];

/** URLs that try to break out of an OSC 8 link or to link elsewhere. */
export const HOSTILE_URLS = {
  breakout: "https://ok.test/a\x1b\\\x1b]8;;http://evil.test/\x07",
  bell: "https://ok.test/b\x07\x1b]52;c;ZWNobyBwd25lZA==\x07",
  c1: "https://ok.test/c\u009d8;;http://evil.test/\u009c",
  bidi: "https://ok.test/\u202egnp.exe",
  scheme: "javascript:alert(document.domain)//ok.test",
  plain: "https://ok.test/plain",
};

/** Our own sequences: SGR colour codes and OSC 8 wrappers around an http(s) URL with no controls or spaces. */
// eslint-disable-next-line no-control-regex
export const OWN_SEQUENCES =
  /\x1b\[[0-9;]*m|\x1b\]8;;(?:https?:\/\/[^\x00-\x20\x7f-\x9f\u202a-\u202e\u2066-\u2069]*)?\x1b\\/g;

/** Bytes no human format may carry: C0 controls but newline (tab and CR included), DEL, C1, bidi controls, line separators. */
// eslint-disable-next-line no-control-regex
export const UNSAFE_HUMAN = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** The same, allowing tab (a TSV separator, data in CSV); callers take out CRLF line ends first. */
// eslint-disable-next-line no-control-regex
export const UNSAFE_DELIMITED = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

/** Describes the first unsafe character for a failure message. */
function where(text: string, re: RegExp): string {
  const m = re.exec(text);
  if (!m) return "";
  const at = m.index;
  return `U+${m[0].codePointAt(0)!.toString(16).padStart(4, "0")} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`;
}

/**
 * Checks human output: only pep's own SGR and OSC 8 sequences, and once they are taken
 * out no control byte at all and (unless `leaks` is false, for text pep escapes rather
 * than removes) none of the hidden text of the payload. Returns the visible text.
 */
export function expectInert(
  text: string,
  label = "output",
  options: { unsafe?: RegExp; leaks?: boolean } = {},
): string {
  const { unsafe = UNSAFE_HUMAN, leaks = true } = options;
  const visible = text.replace(OWN_SEQUENCES, "");
  expect(unsafe.test(visible), `${label}: ${where(visible, unsafe)}`).toBe(false);
  if (leaks) for (const leak of LEAKED_TEXT) expect(visible, `${label} shows ${leak}`).not.toContain(leak);
  return visible;
}

/** The OSC 8 link targets pep emitted. */
export function linkTargets(text: string): string[] {
  // eslint-disable-next-line no-control-regex
  return [...text.matchAll(/\x1b\]8;;([^\x1b\x07]*)\x1b\\/g)].map((m) => m[1]!).filter((t) => t !== "");
}

/** An object key from the API: it becomes a card label, a CSV header, a column name. */
export const HOSTILE_KEY = `zz_key ${SEQUENCES.osc52Clipboard}${SEQUENCES.bidiOverride}${SEQUENCES.clearScreen}${SEQUENCES.c1Csi} zz_key-END`;

/** Cells a spreadsheet would run, some behind controls that are removed first; and plain numbers. */
export const FORMULAS: Array<[sent: string, cell: string, tsvCell?: string]> = [
  ['=HYPERLINK("http://x.test","x")', `'=HYPERLINK("http://x.test","x")`],
  ["-2+3", "'-2+3"],
  ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
  ["@SUM(A1:A9)", "'@SUM(A1:A9)"],
  ["\tTAB", "'\tTAB"],
  // CSV turns the lone CR into a line feed; TSV writes it as the two characters \r
  ["\r=1+1", "'\n=1+1", "'\r=1+1"],
  ["\x1b[0m=1+1", "'=1+1"],
  ["\u202e=1+1", "'=1+1"],
  ["-1.5", "-1.5"],
  ["+12", "+12"],
  ["-3e-5", "-3e-5"],
];

type Item = Record<string, unknown>;

export function peptideSummary(i: number, url: string = HOSTILE_URLS.plain): Item {
  return {
    id: `pep-${i}`,
    name: hostile(`PEPNAME${i}`),
    also_known_as: [hostile(`ALIAS${i}`)],
    categories: [hostile(`CATEGORY${i}`)],
    summary: hostile(`SUMMARY${i}`),
    evidence: { level: hostile(`LEVEL${i}`) },
    regulatory_status: "investigational",
    url,
    zz_unknown: { note: hostile(`UNKNOWN${i}`), list: [hostile(`UNKNOWNLIST${i}`)] },
    [HOSTILE_KEY]: hostile(`KEYVALUE${i}`),
  };
}

export function peptideProfile(): Item {
  return {
    ...peptideSummary(0, HOSTILE_URLS.breakout),
    mechanism: hostile("MECHANISM"),
    safety: { notes: hostile("SAFETY"), side_effects: [hostile("SIDEEFFECT")] },
    references: [{ title: hostile("REFTITLE"), authors: [hostile("REFAUTHOR")], url: HOSTILE_URLS.bell }],
  };
}

export function studyEntry(i: number, url: string = HOSTILE_URLS.plain): Item {
  return {
    id: `pmid-${1000 + i}`,
    title: hostile(`STUDYTITLE${i}`),
    publication_year: 2020,
    authors: [hostile(`AUTHOR${i}`), "Doe, Anna"],
    journal: hostile(`JOURNAL${i}`),
    doi: `10.1000/${i}${SEQUENCES.osc52Clipboard}`,
    pmid: String(1000 + i),
    study_type: "rct",
    evidence_classification: "human_controlled_trial",
    source_url: url,
    url,
    zz_unknown: hostile(`STUDYUNKNOWN${i}`),
  };
}

export function studyDetail(): Item {
  return {
    ...studyEntry(0, HOSTILE_URLS.c1),
    finding_summary: hostile("FINDING"),
    cited_by: [{ id: "pep-0", name: hostile("CITEDBY"), url: HOSTILE_URLS.breakout }],
  };
}

export function vendorEntry(i: number, url: string = HOSTILE_URLS.plain): Item {
  return {
    id: `v${i}`,
    slug: `vendor-${i}`,
    name: hostile(`VENDORNAME${i}`),
    description: hostile(`VENDORDESC${i}`),
    country: "US",
    region: hostile(`REGION${i}`),
    website_url: url,
    profile_url: url,
    url,
    product_categories: ["peptides", hostile(`PRODCAT${i}`)],
    rating: { average: 4.5, count: 10, verified_count: 3 },
    zz_unknown: hostile(`VENDORUNKNOWN${i}`),
    [HOSTILE_KEY]: hostile(`VENDORKEY${i}`),
  };
}

export function vendorDetail(): Item {
  return {
    ...vendorEntry(0, HOSTILE_URLS.scheme),
    shipping: {
      destinations: {
        value: [hostile("DEST")],
        source: { type: hostile("SRCTYPE"), url: HOSTILE_URLS.breakout, checked_at: "2025-05-01" },
      },
      free_shipping: { value: hostile("FREESHIP"), source: "vendor site" },
    },
    sources: [{ name: hostile("SOURCENAME"), url: HOSTILE_URLS.bidi }],
  };
}

/** A cursor that tries to act on the terminal (and on the shell, when pasted back). */
export const HOSTILE_CURSOR = `c1\x1b]52;c;ZWNobyBwd25lZA==\x07'\u009b2J\u202e$(touch pwned) \`x\`;\\`;

/** `X-Request-Id` on every answer: C1 bytes, which a header may carry (read as latin1). */
export const HOSTILE_HEADER_ID = "req\x9b2J\x9d0;TITLEGRAB\x9c-END";

/** The error envelope the API sends, every field hostile. */
export const HOSTILE_ERROR = {
  code: hostile("ERRCODE"),
  message: hostile("ERRMESSAGE"),
  request_id: hostile("ERRREQ"),
};

/** An error whose message opens an escape sequence and never closes it. */
export const OPEN_ERROR = {
  code: "bad\x1b]0;",
  message: "Nope\x1b]0;the rest is a window title",
  request_id: "req_open",
};

export const DISCLOSURE = hostile("DISCLOSURE");

/** What the lists hold: one item per hostile URL. */
export const LISTS = {
  peptides: Object.values(HOSTILE_URLS).map((u, i) => peptideSummary(i, u)),
  studies: Object.values(HOSTILE_URLS).map((u, i) => studyEntry(i, u)),
  vendors: Object.values(HOSTILE_URLS).map((u, i) => vendorEntry(i, u)),
};

export interface HostileApi extends TestServer {
  /** `<url>/v1` */
  baseUrl: string;
}

const page = (req: RecordedRequest, items: Item[], meta: Item = {}) => {
  const offset = Number((req.query.get("cursor") ?? "off-0").replace(/^off-/, "")) || 0;
  const limit = Number(req.query.get("limit") ?? 20);
  const data = items.slice(offset, offset + limit);
  const more = offset + data.length < items.length;
  return envelope(data, {
    pagination: { next_cursor: more ? `off-${offset + data.length}` : null, has_more: more },
    meta,
  });
};

/**
 * `/peptides`, `/studies`, `/vendors` (one item per hostile url), their `{id}` details,
 * and errors: `/peptides/broken` (404), `/studies/broken` (500) and `/vendors/broken`
 * (400) answer the hostile error envelope, `/peptides/open` (404) `OPEN_ERROR`.
 * `/studies?search=cut` gives one page whose next cursor is `HOSTILE_CURSOR`, and that
 * page answers 503. `/peptides?search=formula` lists `FORMULAS` as names. `more`, when
 * given, answers first and returns whether it did (see hostile-api-more.ts).
 */
export async function startHostileApi(
  more?: (req: RecordedRequest, res: ServerResponse) => boolean,
): Promise<HostileApi> {
  const { peptides, studies, vendors } = LISTS;
  const errorStatus: Record<string, number> = { peptides: 404, studies: 500, vendors: 400 };
  const server = await startServer((req, res) => {
    res.setHeader("X-Request-Id", HOSTILE_HEADER_ID);
    if (more?.(req, res)) return;
    const [, v1, group, id, extra] = req.path.split("/");
    if (v1 !== "v1" || !group || extra !== undefined)
      return sendJson(res, 404, { error: { code: "not_found", message: "no route", request_id: "r" } });
    if (id === "broken") return sendJson(res, errorStatus[group] ?? 404, { error: HOSTILE_ERROR });
    if (id === "open") return sendJson(res, 404, { error: OPEN_ERROR });
    if (group === "peptides" && !id && req.query.get("search") === "formula") {
      return sendJson(
        res,
        200,
        page(
          req,
          FORMULAS.map(([name], i) => ({ id: `f${i}`, name, summary: name })),
        ),
      );
    }
    if (group === "peptides") return sendJson(res, 200, id ? envelope(peptideProfile()) : page(req, peptides));
    if (group === "studies" && req.query.get("cursor") === HOSTILE_CURSOR)
      return sendJson(res, 503, { error: HOSTILE_ERROR });
    if (group === "studies" && req.query.get("search") === "cut") {
      return sendJson(
        res,
        200,
        envelope(studies.slice(0, 2), { pagination: { next_cursor: HOSTILE_CURSOR, has_more: true } }),
      );
    }
    if (group === "studies") return sendJson(res, 200, id ? envelope(studyDetail()) : page(req, studies));
    if (group === "vendors") {
      const meta = { affiliate_disclosure: DISCLOSURE };
      return sendJson(res, 200, id ? envelope(vendorDetail(), { meta }) : page(req, vendors, meta));
    }
    return sendJson(res, 404, { error: { code: "not_found", message: "no route", request_id: "r" } });
  });
  return { ...server, baseUrl: `${server.url}/v1` };
}

/**
 * What ora, the spinner, writes on a terminal: each frame in a synchronized-output block
 * (`ESC[?2026h` … `ESC[?2026l`), the cursor hidden and shown, and its line cleared (to
 * column 1, erased to the end, a line up for each line it took). It shows once a run has
 * lasted a moment, which a loaded machine gives any run: taken out of what a screen test
 * reads, the rest is pep's own output, the same however long the run took.
 */
// eslint-disable-next-line no-control-regex
export const SPINNER_WRITES = /\x1b\[\?2026h[\s\S]*?\x1b\[\?2026l|\x1b\[\?25[lh]|\x1b\[1G(?:\x1b\[0K|\x1b\[1A)*/g;

/**
 * Runs the real executable on a pseudo-terminal (util-linux `script`), so that stdout and
 * stderr are terminals: colour, OSC 8 links, the next-cursor hint. What the terminal
 * received (stdout and stderr together, no newline translation), without the spinner's
 * writes (SPINNER_WRITES), comes back as `out`.
 */
export function spawnPepTty(argv: readonly string[], env: Record<string, string>, columns = 160): Promise<PepRun> {
  const words = [process.execPath, BIN, ...argv].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(" ");
  const command = `stty -onlcr cols ${columns} rows 50 2>/dev/null; exec ${words}`;
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      cwd: ROOT,
      // No pager: these runs check what pep itself prints on a terminal (test/e2e/pager.test.ts pages).
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm-256color", PEP_PAGER: "cat", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => out.push(c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, out: Buffer.concat(out).toString("utf8").replace(SPINNER_WRITES, ""), err: "" });
    });
    child.stdin.end();
  });
}

/** Whether `script` is there to give the executable a terminal. */
export function hasScript(): boolean {
  return spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;
}
