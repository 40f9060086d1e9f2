/**
 * A loopback API for the fault matrix: `/v1/studies` pages through a fixed list with
 * cursors, `/v1/peptides/{slug}` answers one profile, and any request can be made to
 * fail on purpose. Every answer carries `X-Request-Id`, so tests can check that the
 * request id reaches the error line.
 *
 *   const api = await startFaultApi({ total: 6 });
 *   api.fault(api.cursorAt(2), faults.status(503));   // page 2 fails
 *   api.heal();                                        // healthy again
 *
 * Cursors are opaque to the client but readable here: `off-<offset>` starts at that
 * item, so a resumed run continues exactly where the failed one stopped.
 */
import type { ServerResponse } from "node:http";
import { inProcessPep, readableError, runPep, spawnPep } from "./cli.js";
import {
  delay,
  resetConnection,
  sendJson,
  sendText,
  sendTruncated,
  startServer,
  type Handler,
  type RecordedRequest,
  type TestServer,
} from "./server.js";
import { useLoopback, type Suite } from "./suite.js";

export type Item = Record<string, unknown>;

/** Study index entries, with one field the client does not know (it must pass through). */
export function studyItems(total: number): Item[] {
  return Array.from({ length: total }, (_, i) => ({
    id: `pmid-${90000001 + i}`,
    title: `Synthetic study ${i + 1}, with "quotes", commas`,
    publication_year: 2000 + (i % 25),
    authors: ["A. Author", "B. Author"],
    journal: "Journal of Tests",
    doi: null,
    pmid: String(90000001 + i),
    study_type: "rct",
    evidence_classification: "human_rct",
    future_field: { added_in: "v1.9", rank: i },
  }));
}

export const PEPTIDE: Item = {
  id: "bpc-157",
  name: "BPC-157",
  also_known_as: ["Body protection compound 157"],
  summary: "A synthetic test profile.",
  evidence: { level: "preclinical", human: "not_documented" },
  regulatory_status: "not_approved",
  brand_new_section: { note: "unknown to this client" },
};

/** `X-Request-Id` of the n-th request the server received. */
export const requestIdOf = (index: number): string => `req_fault_${index}`;

export interface FaultApi extends TestServer {
  /** `<url>/v1` */
  baseUrl: string;
  items: Item[];
  /** The cursor of the page that starts at item `offset` (undefined for the first page). */
  cursorAt(offset: number): string | undefined;
  /**
   * Answers the next `times` requests for the page at `cursor` (undefined: the first
   * page) with `handler`; `"peptide"` targets `/v1/peptides/{slug}`. Later requests are healthy.
   */
  fault(at: string | undefined | "peptide", handler: Handler, times?: number): void;
  /** Every page and the peptide answer healthily again; the hit counts start over. */
  heal(): void;
  /** Requests received for the page at `cursor`. */
  hits(at: string | undefined | "peptide"): number;
}

const FIRST = "<first>";

/** One fault API for a test file, healed after each test (see useLoopback). */
export function useFaultApi(options: { total?: number } = {}): Suite<FaultApi> {
  return useLoopback(() => startFaultApi(options), "pep-faults-", { afterEach: (api) => api.heal() });
}

export async function startFaultApi(options: { total?: number } = {}): Promise<FaultApi> {
  const items = studyItems(options.total ?? 6);
  const faults = new Map<string, { handler: Handler; left: number }>();
  const hits = new Map<string, number>();
  const keyOf = (at: string | undefined) => at ?? FIRST;

  const server = await startServer(async (req, res, raw) => {
    res.setHeader("X-Request-Id", requestIdOf(req.index));
    let key: string;
    if (req.path === "/v1/studies") key = keyOf(req.query.get("cursor") ?? undefined);
    else if (req.path.startsWith("/v1/peptides/")) key = "peptide";
    else
      return sendJson(res, 404, {
        error: { code: "not_found", message: `no route ${req.path}`, request_id: requestIdOf(req.index) },
      });
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const fault = faults.get(key);
    if (fault && fault.left > 0) {
      fault.left -= 1;
      return fault.handler(req, res, raw);
    }
    return key === "peptide" ? sendJson(res, 200, { data: PEPTIDE, meta: {} }) : sendPage(req, res, items);
  });
  return {
    ...server,
    baseUrl: `${server.url}/v1`,
    items,
    cursorAt: (offset) => (offset === 0 ? undefined : `off-${offset}`),
    fault(at, handler, times = Number.POSITIVE_INFINITY) {
      faults.set(keyOf(at), { handler, left: times });
    },
    heal() {
      faults.clear();
      hits.clear();
    },
    hits: (at) => hits.get(keyOf(at)) ?? 0,
  };
}

/** The healthy page for the request's `cursor` and `limit`. */
export function pageBody(req: RecordedRequest, items: Item[]): Record<string, unknown> {
  const cursor = req.query.get("cursor");
  const offset = cursor ? Number(cursor.replace(/^off-/, "")) : 0;
  const limit = Number(req.query.get("limit") ?? 20);
  const data = items.slice(offset, offset + limit);
  const end = offset + data.length;
  const more = end < items.length;
  return {
    data,
    pagination: { next_cursor: more ? `off-${end}` : null, has_more: more },
    meta: { total: items.length },
  };
}

function sendPage(req: RecordedRequest, res: ServerResponse, items: Item[]): void {
  sendJson(res, 200, pageBody(req, items));
}

function errorEnvelope(req: RecordedRequest, code: string, message: string) {
  return { error: { code, message, request_id: requestIdOf(req.index) } };
}

/** Fault handlers for `api.fault(...)`. */
export const faults = {
  /** 429 with the API's envelope; `retryAfter` as given (seconds or an HTTP date), none when undefined. */
  rateLimited(retryAfter?: string): Handler {
    return (req, res) =>
      sendJson(
        res,
        429,
        errorEnvelope(req, "rate_limited", "Too many requests"),
        retryAfter === undefined ? {} : { "Retry-After": retryAfter },
      );
  },
  /** A 5xx with the API's envelope. */
  status(status: number, retryAfter?: string): Handler {
    return (req, res) =>
      sendJson(
        res,
        status,
        errorEnvelope(req, status === 503 ? "service_unavailable" : "internal_error", `Server trouble ${status}`),
        retryAfter === undefined ? {} : { "Retry-After": retryAfter },
      );
  },
  /** 502 from a proxy: an HTML page, no envelope. */
  badGatewayHtml(): Handler {
    return (_req, res) =>
      sendText(
        res,
        502,
        "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n",
        "text/html",
      );
  },
  /** 200 with an HTML page (a captive portal, a misconfigured base URL). */
  htmlOk(): Handler {
    return (_req, res) =>
      sendText(res, 200, "<!doctype html><html><body>Welcome to the portal</body></html>", "text/html; charset=utf-8");
  },
  /** 200 with a JSON body of another shape. */
  json(body: unknown, status = 200): Handler {
    return (_req, res) => sendJson(res, status, body);
  },
  /** The healthy page, announced whole but cut off after `keep` bytes. */
  truncated(items: Item[], keep = 40): Handler {
    return (req, res) => sendTruncated(res, 200, JSON.stringify(pageBody(req, items)), keep);
  },
  /** The connection reset without an answer. */
  reset(): Handler {
    return (_req, res) => resetConnection(res);
  },
  /** Waits `ms` before answering the healthy page (or never answers when the client hangs up first). */
  slow(ms: number, items: Item[]): Handler {
    return async (req, res) => {
      await delay(ms);
      if (!res.destroyed && !res.socket?.destroyed) sendPage(req, res, items);
    };
  },
  /** Headers at once, then the body a byte every 100 ms, never finishing. */
  dribble(): Handler {
    return (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"data":[');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(" ")), 100);
      res.on("close", () => clearInterval(timer));
    };
  },
  /** The healthy page, but its next cursor is the cursor that was asked for. */
  repeatCursor(items: Item[]): Handler {
    return (req, res) => {
      const body = pageBody(req, items);
      const same = req.query.get("cursor");
      sendJson(res, 200, { ...body, pagination: { next_cursor: same, has_more: true } });
    };
  },
};

/**
 * Checks the contract's error output: exactly one `error:` line (or the API's envelope
 * as JSON, with -o json and ndjson), every other line a
 * retry notice, a hint or the resume command, and no stack trace. Returns the error line.
 */
export function errorLineOf(stderr: string): string {
  const lines = stderr.split("\n").filter((l) => l !== "");
  // With -o json and ndjson the error is one JSON object (checked, then read back as the
  // line a person would have seen).
  const errors = lines.filter((l) => l.startsWith("error: ") || l.startsWith('{"error":'));
  if (errors.length !== 1) throw new Error(`expected one error line on stderr, got ${errors.length}:\n${stderr}`);
  if (errors[0]!.startsWith("{")) {
    if (lines.length !== 1 && lines.some((l) => !l.startsWith("{") && !/retrying in/.test(l)))
      throw new Error(`a JSON error comes alone (retry notices aside):\n${stderr}`);
    return readableError(errors[0]!);
  }
  for (const l of lines) {
    if (/^\s+at /.test(l) || /\.(ts|js):\d+/.test(l)) throw new Error(`stack trace on stderr:\n${stderr}`);
    if (!/^(error: |\{"error":|hint: |note: |to resume: |\S.*; retrying in \S+( ms)? \(\d+\/\d+\)$)/.test(l))
      throw new Error(`unexpected line on stderr: ${JSON.stringify(l)}\n${stderr}`);
  }
  return errors[0]!;
}

/** Seconds of the first retry notice (`…; retrying in 1.0s (1/1)` or `… 800 ms …`). */
export function toldWait(stderr: string): number {
  const m = /retrying in (\d+(?:\.\d+)?) ?(ms|s)\b/.exec(stderr);
  if (!m) throw new Error(`no retry notice on stderr:\n${stderr}`);
  return m[2] === "ms" ? Number(m[1]) / 1000 : Number(m[1]);
}

/** The retry notices on stderr (`…; retrying in 1.0s (1/2)`). */
export function retryNotices(stderr: string): string[] {
  return stderr.split("\n").filter((l) => /; retrying in /.test(l));
}

/**
 * The words of the `to resume:` command on stderr, without the leading `pep`, read as
 * a POSIX shell would read them (plain words and single-quoted strings).
 */
export function resumeArgv(stderr: string): string[] {
  // Readable lines say `to resume: <command>`; under -o json/ndjson the one JSON error
  // object carries the same command as its `resume` field.
  const json = stderr.split("\n").find((l) => l.startsWith('{"error":'));
  const fromJson = json ? (JSON.parse(json) as { resume?: string | null }).resume : undefined;
  const line = fromJson ? `to resume: ${fromJson}` : stderr.split("\n").find((l) => l.startsWith("to resume: "));
  if (!line) throw new Error(`no "to resume:" line on stderr:\n${stderr}`);
  const words: string[] = [];
  const re = /'([^']*)'|(\S+)/g;
  const text = line.slice("to resume: ".length).replace(/'\\''/g, "\u0000");
  for (let m = re.exec(text); m; m = re.exec(text)) words.push((m[1] ?? m[2]!).replace(/\u0000/g, "'"));
  if (words[0] !== "pep") throw new Error(`the resume command does not start with pep: ${line}`);
  return words.slice(1);
}

/**
 * Runs the real `pep <argv> --base-url <api>` with the page at item `failAt` failing
 * through `fault`, then the `to resume:` command it printed against the healed server:
 * in-process by default (the same code, and half the process starts), or spawned.
 */
export async function failThenResume(
  api: FaultApi,
  env: Record<string, string>,
  argv: readonly string[],
  failAt: number,
  fault: Handler,
  resumeIn: "process" | "spawn" = "process",
) {
  const cursor = api.cursorAt(failAt);
  if (cursor === undefined) throw new Error("failThenResume needs a page after the first");
  api.fault(cursor, fault);
  const first = await inProcessPep([...argv, "--base-url", api.baseUrl], { env });
  const resume = resumeArgv(first.err);
  api.heal();
  const rest = resumeIn === "spawn" ? await spawnPep(resume, { env }) : await runPep(resume, { env });
  return { first, resume, rest, cursor };
}
