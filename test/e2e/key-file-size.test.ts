/**
 * Key inputs have a size: `--api-key-file /dev/zero` or `/dev/urandom`, and the same
 * devices on stdin for `--api-key-file -`, `auth login --with-key` and
 * `config set api_key -`, are refused at once with a usage error naming the flag, and
 * nothing is sent (the run would otherwise read without end).
 */
import { spawn } from "node:child_process";
import { existsSync, openSync, closeSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BIN, ROOT, type PepRun } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { useLoopback } from "../helpers/suite.js";

const suite = useLoopback<TestServer>(
  () =>
    startServer((_req, res) => {
      res.end("{}");
    }),
  "pep-keysize-",
);

/** Runs pep with stdin read from `stdinPath` (a device), collecting its output. Spawned: stdin is the device itself. */
function pepWithStdin(argv: string[], stdinPath: string | undefined): Promise<PepRun> {
  return new Promise((resolve, reject) => {
    const fd = stdinPath === undefined ? "ignore" : openSync(stdinPath, "r");
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...suite.tmp.env },
      stdio: [fd, "pipe", "pipe"],
    });
    if (typeof fd === "number") closeSync(fd);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on("data", (c: Buffer) => out.push(c));
    child.stderr!.on("data", (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({
        code: code ?? 137,
        out: Buffer.concat(out).toString("utf8"),
        err: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}

const devices = ["/dev/zero", "/dev/urandom"].filter((d) => existsSync(d));

describe.skipIf(devices.length === 0)("key inputs that never end", () => {
  for (const device of devices) {
    it(`--api-key-file ${device}: exit 2 at once, nothing sent`, async () => {
      const before = suite.api.requests.length;
      const r = await pepWithStdin(
        ["api", "/", "--api-key-file", device, "--base-url", `${suite.api.url}/v1`],
        undefined,
      );
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(`error: --api-key-file: ${device} is a character device, not a file that holds a key`);
      expect(suite.api.requests.length).toBe(before);
    });

    it(`--api-key-file - with ${device} on stdin: exit 2 at once, nothing sent`, async () => {
      const before = suite.api.requests.length;
      const r = await pepWithStdin(["api", "/", "--api-key-file", "-", "--base-url", `${suite.api.url}/v1`], device);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain("error: --api-key-file: standard input holds more than 4 KiB");
      expect(suite.api.requests.length).toBe(before);
    });

    it(`auth login --with-key and config set api_key - with ${device} on stdin: exit 2, no config written`, async () => {
      const login = await pepWithStdin(["auth", "login", "--with-key", "--base-url", `${suite.api.url}/v1`], device);
      expect(login.code, login.err).toBe(2);
      expect(login.err).toContain("error: --with-key: standard input holds more than 4 KiB");
      const set = await pepWithStdin(["config", "set", "api_key", "-"], device);
      expect(set.code, set.err).toBe(2);
      expect(set.err).toContain("standard input holds more than 4 KiB");
      expect(existsSync(`${suite.tmp.env.PEP_CONFIG_DIR}/config.json`)).toBe(false);
    });
  }
});
