/**
 * The README lists every JSON `error.code` pep gives a failure, with its exit code,
 * generated from src/core/error-codes.ts (`npm run error-codes`): this fails when the
 * README's table is stale, and when a failure's code is missing from the list.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { report } from "../../src/cli/report.js";
import { ERROR_CODES, errorCodeTable } from "../../src/core/error-codes.js";
import {
  ApiError,
  AuthError,
  ConfigError,
  InterruptedError,
  NetworkError,
  NoPageError,
  OutputError,
  PaginationLoopError,
  ResponseError,
  UsageError,
} from "../../src/core/errors.js";
import { testIO } from "../../src/core/io.js";
import { ROOT } from "../helpers/cli.js";

const README = readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The JSON error object `report` prints for `err`. */
function told(err: unknown, endedBy?: NodeJS.Signals): { error: { code: string }; exit_code: number } {
  const io = testIO({});
  const code = report(err, io, { argv: [], cursorGiven: undefined }, { verbose: false, machine: true, endedBy });
  const object = JSON.parse(io.err().trim()) as { error: { code: string }; exit_code: number };
  expect(object.exit_code).toBe(code);
  return object;
}

const systemError = (code: string) =>
  Object.assign(new Error(`${code}: failed, write`), { code, syscall: "write" }) as NodeJS.ErrnoException;

describe("the README's table of error codes", () => {
  it("is the one generated from src/core/error-codes.ts (run `npm run error-codes` when this fails)", () => {
    const section = /<!-- error-codes:start -->\n([\s\S]*?)\n<!-- error-codes:end -->/.exec(README);
    expect(section, "README.md lost its error-codes markers").not.toBeNull();
    expect(section![1]).toBe(errorCodeTable());
  });

  it("holds the code and exit code of every kind of failure pep tells", () => {
    const listed = new Map(ERROR_CODES.map((c) => [c.code, c.exit]));
    const cases: Array<[unknown, string, number]> = [
      [new UsageError("x"), "usage_error", 2],
      [new ConfigError("x"), "config_error", 2],
      [new AuthError("x"), "auth_error", 3],
      [new NoPageError("x"), "no_page", 4],
      [new NetworkError("x", "timeout"), "timeout", 6],
      [new NetworkError("x", "reset"), "network_error", 6],
      [new ResponseError("x", { status: 200 }), "bad_response", 6],
      [new PaginationLoopError("c"), "pagination_loop", 6],
      [new OutputError("x"), "output_error", 1],
      [new OutputError("x", { reason: "disk_full" }), "disk_full", 1],
      [new OutputError("x", { reason: "permission_denied" }), "permission_denied", 1],
      [new OutputError("x", { reason: "target_busy" }), "target_busy", 1],
      [systemError("ENOSPC"), "disk_full", 1],
      [systemError("EDQUOT"), "disk_full", 1],
      [systemError("EACCES"), "permission_denied", 1],
      [systemError("EROFS"), "permission_denied", 1],
      [systemError("EIO"), "output_error", 1],
      [new InterruptedError(), "interrupted", 130],
      [new Error("a bug"), "unexpected", 1],
    ];
    for (const [err, code, exit] of cases) {
      const o = told(err);
      expect(o.error.code, String(err)).toBe(code);
      expect(o.exit_code, String(err)).toBe(exit);
      expect(listed.get(code)?.split(", ")[0], `${code} is not in ERROR_CODES with exit ${exit}`).toBe(String(exit));
    }
    const api = told(new ApiError({ status: 502 }));
    expect([api.error.code, api.exit_code]).toEqual(["http_502", 6]);
    expect(listed.has("http_<status>")).toBe(true);
  });

  it("an interrupted run's exit_code is the process's: 128 + the signal's number", () => {
    expect(told(new InterruptedError(), "SIGINT").exit_code).toBe(130);
    expect(told(new InterruptedError(), "SIGHUP").exit_code).toBe(129);
    expect(told(new InterruptedError(), "SIGTERM").exit_code).toBe(143);
    expect(listed("interrupted")).toBe("130, 129, 131, 143");
  });
});

const listed = (code: string) => ERROR_CODES.find((c) => c.code === code)?.exit;
