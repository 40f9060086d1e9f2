/**
 * Where output lands when it is not a plain new file, through the real executable
 * against the sandbox: `--file` on a symlink replaces the link with the new file and
 * never writes where it pointed; `--file` on a named pipe writes into the pipe and leaves it a pipe
 * (renaming over it, as for a regular file, would swap the pipe, or `/dev/null`, for a
 * plain file); a full disk on stdout is one plain error line, not a "bug" report.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  createReadStream,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { BIN, errorText, ROOT, inProcessPep } from "../helpers/cli.js";
import { useLoopback } from "../helpers/suite.js";

const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-file-targets-");
const { tmp } = suite;

const studies = (file: string) => [
  "studies",
  "list",
  "--limit",
  "3",
  "-o",
  "ndjson",
  "--file",
  file,
  "--base-url",
  suite.api.baseUrl,
];

describe("--file targets that are not a plain file", () => {
  it("a symlink: replaced by the new file, never followed; the file it pointed at is left as it was", async () => {
    const real = path.join(tmp.dir, "real.ndjson");
    const link = path.join(tmp.dir, "link.ndjson");
    writeFileSync(real, "old\n");
    symlinkSync(real, link);
    const r = await inProcessPep(studies(link), { env: tmp.env });
    expect(r.code, r.err).toBe(0);
    expect(lstatSync(link).isFile()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe("old\n");
    const lines = readFileSync(link, "utf8").trim().split("\n");
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(JSON.parse(l)).toHaveProperty("id");
    expect(readdirSync(tmp.dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("a dangling symlink or a chain of links: the name gets the file, nothing is created where they point", async () => {
    const dir = mkdtempSync(path.join(tmp.dir, "dangling-"));
    mkdirSync(path.join(dir, "data"));
    symlinkSync("data/studies-2026.ndjson", path.join(dir, "latest.ndjson"));
    symlinkSync(path.join(dir, "b"), path.join(dir, "a"));
    symlinkSync("c.ndjson", path.join(dir, "b"));
    for (const name of ["latest.ndjson", "a"]) {
      const r = await inProcessPep(studies(path.join(dir, name)), { env: tmp.env });
      expect(r.code, r.err).toBe(0);
      expect(lstatSync(path.join(dir, name)).isFile()).toBe(true);
      expect(readFileSync(path.join(dir, name), "utf8").trim().split("\n")).toHaveLength(3);
    }
    expect(readdirSync(dir).sort()).toEqual(["a", "b", "data", "latest.ndjson"]);
    expect(readdirSync(path.join(dir, "data"))).toEqual([]);
    expect(lstatSync(path.join(dir, "b")).isSymbolicLink()).toBe(true);
  });

  it("a missing folder, directly or behind a link to a folder, is a usage error before any request", async () => {
    const dir = mkdtempSync(path.join(tmp.dir, "nofolder-"));
    symlinkSync("gone", path.join(dir, "link"));
    for (const [target, folder] of [
      [path.join(dir, "missing", "out.ndjson"), path.join(dir, "missing")],
      [path.join(dir, "link", "out.ndjson"), path.join(dir, "link")],
    ] as const) {
      const r = await inProcessPep(studies(target), { env: tmp.env });
      expect(r.code, r.err).toBe(2);
      expect(errorText(r.err)).toContain(`error: --file: the folder ${folder} does not exist`);
      expect(r.err).not.toMatch(/unexpected|ENOENT/);
    }
    expect(readdirSync(dir)).toEqual(["link"]);
  });

  it("a loop of links as the folder is a usage error", async () => {
    const dir = mkdtempSync(path.join(tmp.dir, "loop-"));
    symlinkSync("y", path.join(dir, "x"));
    symlinkSync("x", path.join(dir, "y"));
    const r = await inProcessPep(studies(path.join(dir, "x", "out.ndjson")), { env: tmp.env });
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/--file: .* loop of symbolic links/);
  });

  it.skipIf(!hasMkfifo())("a named pipe: the reader gets the output and the pipe is still a pipe", async () => {
    const fifo = path.join(tmp.dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const received = new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      createReadStream(fifo)
        .on("data", (c) => chunks.push(c as Buffer))
        .on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
        .on("error", reject);
    });
    const r = await inProcessPep(studies(fifo), { env: tmp.env });
    expect(r.code, r.err).toBe(0);
    expect((await received).trim().split("\n")).toHaveLength(3);
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith(".pipe"))).toEqual([]);
  });
});

describe.skipIf(!existsSync("/dev/full"))("stdout on a full disk", () => {
  it("exits 1 with one line saying the output could not be written, not a bug report", async () => {
    // Spawned: stdout must be a real descriptor on /dev/full, not a stream in this process.
    const out = openSync("/dev/full", "w");
    const child = spawn(
      process.execPath,
      [BIN, ...["studies", "list", "--limit", "3", "-o", "json", "--base-url", suite.api.baseUrl]],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...tmp.env },
        stdio: ["ignore", out, "pipe"],
      },
    );
    let err = "";
    child.stderr?.on("data", (c: Buffer) => (err += c.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(errorText(err)).toMatch(/^error: cannot write the output: .*ENOSPC/m);
    expect(err).not.toMatch(/bug/i);
    expect(err).not.toMatch(/\n\s+at /);
  });
});

function hasMkfifo(): boolean {
  try {
    execFileSync("mkfifo", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
