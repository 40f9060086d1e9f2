/**
 * The sandbox against hostile requests and careless flags, in-process: a query name that
 * `Object.prototype` holds (`constructor`, `__proto__`, `toString`) is an unknown
 * parameter like any other, never "given more than once"; and `pep sandbox --host` beyond
 * loopback, where its public keys are open to the network, warns before it listens and
 * says in its banner where it really listens.
 */
import { describe, expect, it } from "vitest";
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
      expect(error).toMatchObject({ code: "unknown_parameter", message: `${name} is not a parameter of this endpoint` });
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
