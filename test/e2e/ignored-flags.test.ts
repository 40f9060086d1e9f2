/**
 * No flag is silently ignored (issue: outputs scripts can trust): `-o csv|tsv` on the
 * answers that are not a list (search's two groups, `pep api`'s envelope) writes sensible
 * rows, and `--fields` on a command that shows one thing is refused before any request.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const cli = useSandboxCli();
const KEY = { PEP_API_KEY: "sbx_full_key" };

describe("-o csv and tsv on answers that are not a list", () => {
  it("search: one row a hit, profiles then content, a kind column saying which", async () => {
    const json = await cli.pep(["search", "cal", "-o", "json"], { env: KEY });
    const data = JSON.parse(json.out) as { peptides: Array<{ id: string }>; content: Array<{ id: string }> };
    const r = await cli.pep(["search", "cal", "-o", "csv"], { env: KEY });
    expect(r.code, r.err).toBe(0);
    const rows = parse(r.out, { columns: true }) as Array<Record<string, string>>;
    expect(r.out.split("\r\n")[0]).toBe("kind,id,title,type,url,score,excerpt");
    expect(rows.map((row) => [row.kind, row.id])).toEqual([
      ...data.peptides.map((p) => ["peptide", p.id]),
      ...data.content.map((c) => ["content", c.id]),
    ]);
    const tsv = await cli.pep(["search", "cal", "-o", "tsv"], { env: KEY });
    expect(tsv.out.split("\n")[0]).toBe("kind\tid\ttitle\ttype\turl\tscore\texcerpt");
  });

  it("pep api: the rows of the answer's data, the list's items or the one object", async () => {
    const list = await cli.pep(["api", "/categories", "-o", "csv"], { env: KEY });
    expect(list.code, list.err).toBe(0);
    const rows = parse(list.out, { columns: true }) as Array<Record<string, string>>;
    const plain = JSON.parse((await cli.pep(["api", "/categories"], { env: KEY })).out) as {
      data: Array<{ id: string }>;
    };
    expect(rows.map((r) => r.id)).toEqual(plain.data.map((c) => c.id));
    expect(Object.keys(rows[0]!)).not.toContain("pagination.has_more");
    const peptides = JSON.parse((await cli.pep(["api", "/peptides", "-F", "limit=1"], { env: KEY })).out) as {
      data: Array<{ id: string }>;
    };
    const slug = peptides.data[0]!.id;
    const one = await cli.pep(["api", `/peptides/${slug}`, "-o", "csv"], { env: KEY });
    expect(one.code, one.err).toBe(0);
    const single = parse(one.out, { columns: true }) as Array<Record<string, string>>;
    expect(single).toHaveLength(1);
    expect(single[0]!.id).toBe(slug);
  });
});

describe("--fields where there is no list", () => {
  it("is refused before any request, naming the commands that take it", async () => {
    for (const argv of [
      ["peptides", "get", "anything", "--fields", "id"],
      ["search", "cal", "--fields", "id"],
      ["api", "/peptides", "--fields", "id"],
      ["vendors", "get", "v", "--fields", "id"],
    ]) {
      const r = await cli.pep(argv, { env: KEY });
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toContain("--fields chooses the columns of a list");
      expect(r.err).toContain("pep peptides list");
      expect(r.sent).toBe(0);
    }
  });
});
