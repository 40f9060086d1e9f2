/**
 * The sandbox against hostile requests and careless flags, in-process: a query name that
 * `Object.prototype` holds (`constructor`, `__proto__`, `toString`) is an unknown
 * parameter like any other, never "given more than once"; and `pep sandbox --host` beyond
 * loopback, where its public keys are open to the network, warns before it listens and
 * says in its banner where it really listens.
 */
import { describe, expect, it } from "vitest";
import { testIO } from "../../src/core/io.js";
import { run } from "../../src/cli/main.js";
import { scratch } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const sb = useSandboxCli();

describe("query names that Object.prototype holds", () => {
  it.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"])(
    "-F %s=1 is an unknown parameter, as any other name",
    async (name) => {
      const r = await sb.pep(["api", "/peptides", "-F", `${name}=1`, "-o", "json"]);
      expect(r.code, r.err).toBe(2);
      expect(r.sent).toBe(1);
      const error = (JSON.parse(r.err.trim()) as { error: { code: string; message: string } }).error;
      expect(error).toMatchObject({
        code: "unknown_parameter",
        message: `${name} is not a parameter of this endpoint`,
      });
    },
  );

  it("a name given twice is still refused as given twice, and a known name still works", async () => {
    const twice = await fetch(`${sb.baseUrl}/peptides?constructor=1&constructor=2`);
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { error: { message: string } }).error.message).toBe(
      "constructor is given more than once",
    );
    const ok = await fetch(`${sb.baseUrl}/peptides?limit=1`);
    expect(ok.status).toBe(200);
  });
});

/** Runs `pep sandbox <flags>` in-process until its banner is out, then stops it as Ctrl-C would. */
async function sandboxBanner(flags: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const tmp = scratch("pep-sandbox-host-");
  const stop = new AbortController();
  const io = testIO({ env: tmp.env, signal: stop.signal });
  const running = run(["sandbox", "--port", "0", ...flags], { io });
  try {
    for (let i = 0; i < 200 && !io.out().includes("Ctrl-C") && !io.err().includes("error"); i++)
      await new Promise((r) => setTimeout(r, 25));
    stop.abort();
    const code = await running;
    return { code, out: io.out(), err: io.err() };
  } finally {
    tmp.cleanup();
  }
}

describe("pep sandbox --host beyond loopback", () => {
  it("0.0.0.0: a warning that every interface hears the public keys, and the banner names 0.0.0.0", async () => {
    const r = await sandboxBanner(["--host", "0.0.0.0"]);
    expect(r.err).toMatch(/^warning: .*0\.0\.0\.0.*every interface/m);
    expect(r.err).toContain("sbx_full_key");
    expect(r.out).toMatch(/^listening on: 0\.0\.0\.0:\d+ /m);
    // the base URL to use from this machine is still a loopback one
    expect(r.out).toMatch(/^base URL: http:\/\/127\.0\.0\.1:\d+\/v1$/m);
  });

  it(":: (every IPv6 and IPv4 interface) warns too", async () => {
    const r = await sandboxBanner(["--host", "::"]);
    expect(r.err).toMatch(/^warning: .*::.*every interface/m);
    // a machine without IPv6 cannot listen there: the warning came first all the same
    if (!r.err.includes("is not an address of this machine")) expect(r.out).toMatch(/^listening on: \[::\]:\d+ /m);
  });

  it.each(["127.0.0.1", "localhost", "127.0.0.2"])("%s (loopback): no warning", async (host) => {
    const r = await sandboxBanner(["--host", host]);
    expect(r.out).toContain("Ctrl-C");
    expect(r.err).not.toMatch(/warning/);
  });

  it("the banner keeps within 80 columns, each key on a line with its scopes", async () => {
    const r = await sandboxBanner(["--host", "127.0.0.1"]);
    for (const line of r.out.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(r.out).toMatch(/^keys: sbx_full_key \(every scope\)$/m);
    expect(r.out).toMatch(/^ +sbx_research_key \(research:read, studies:read\)$/m);
    expect(r.out).toMatch(/^ +sbx_vendors_key \(vendors:read\)$/m);
  });
});
