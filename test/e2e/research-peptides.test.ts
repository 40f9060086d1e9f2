/**
 * `pep peptides …` end to end against the sandbox: every format, paging across pages,
 * `--all`, `--cursor`, `--fields`, `--file`, the filters, every bound refused before a
 * request, and 404s.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchAll, getJson, ids } from "../helpers/direct.js";
import { parseCsv, parseNdjson, parseTsv, readCitations, visible, widestLine } from "../helpers/formats.js";
import { startSandboxCli, type SandboxCli } from "../helpers/sandbox-cli.js";

type Item = Record<string, unknown>;
let cli: SandboxCli;
let all: Item[];
let slug: string;

beforeAll(async () => {
  // Scale 2: about 80 profiles, enough to page through in pages of 20.
  cli = await startSandboxCli({ seed: 7, scale: 2 });
  all = (await fetchAll(cli.baseUrl, "/peptides")) as Item[];
  slug = String(all[0]!.id);
});
afterAll(async () => {
  await cli?.close();
});

const json = (out: string) => JSON.parse(out) as Item[];

describe("pep peptides list", () => {
  it("has enough data to page through", () => {
    expect(all.length).toBeGreaterThan(45);
  });

  it("prints the first 20 profiles as JSON, in the API's order", async () => {
    const r = await cli.pep(["peptides", "list", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(all).slice(0, 20));
    expect(json(r.out)[0]).toEqual(all[0]);
    expect(r.sent).toBe(1);
  });

  it("plain `pep peptides` is the list", async () => {
    const r = await cli.pep(["peptides", "-o", "json", "--limit", "3"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(all).slice(0, 3));
  });

  it("ndjson: one profile a line", async () => {
    const r = await cli.pep(["peptides", "list", "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(parseNdjson(r.out))).toEqual(ids(all).slice(0, 20));
  });

  it("csv: a header row and one record per profile, nested fields flattened", async () => {
    const r = await cli.pep(["peptides", "list", "-o", "csv"]);
    expect(r.code, r.err).toBe(0);
    const rows = parseCsv(r.out);
    expect(rows.map((x) => x.id)).toEqual(ids(all).slice(0, 20));
    expect(rows.map((x) => x.name)).toEqual(all.slice(0, 20).map((p) => p.name));
    expect(Object.keys(rows[0]!)).toContain("evidence.level");
    expect(rows[0]!["evidence.level"]).toBe((all[0]!.evidence as Item).level);
  });

  it("tsv: the same rows, tab-separated", async () => {
    const r = await cli.pep(["peptides", "list", "-o", "tsv"]);
    expect(r.code, r.err).toBe(0);
    const rows = parseTsv(r.out);
    expect(rows.map((x) => x.id)).toEqual(ids(all).slice(0, 20));
    expect(rows.map((x) => x.name)).toEqual(all.slice(0, 20).map((p) => p.name));
  });

  it.each([80, 160])(
    "table on a %i-column terminal: every profile, no line wider than the terminal",
    async (columns) => {
      const r = await cli.pep(["peptides", "list"], { tty: true, columns });
      expect(r.code, r.err).toBe(0);
      expect(widestLine(r.out)).toBeLessThanOrEqual(columns);
      const text = visible(r.out);
      // Ids are never cut (they are what `peptides get` takes); names are whole when there is room.
      for (const p of all.slice(0, 20)) expect(text).toMatch(new RegExp(`^${String(p.id)} `, "m"));
      if (columns >= 120) for (const p of all.slice(0, 20)) expect(text).toContain(String(p.name));
      // The next page is told on stderr, on a terminal.
      expect(visible(r.err)).toMatch(/--cursor=\S+/);
    },
  );

  it("is a table by default on a terminal, JSON otherwise", async () => {
    const tty = await cli.pep(["peptides", "list", "--limit", "2"], { tty: true, columns: 120 });
    expect(() => JSON.parse(tty.out)).toThrow();
    const pipe = await cli.pep(["peptides", "list", "--limit", "2"]);
    expect(ids(json(pipe.out))).toEqual(ids(all).slice(0, 2));
  });

  it("--limit fetches pages as needed: 45 items in pages of 20 is 3 requests", async () => {
    const r = await cli.pep(["peptides", "list", "--limit", "45", "--page-size", "20", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(all).slice(0, 45));
    expect(r.sent).toBe(3);
  });

  it("--all collects exactly what the API holds", async () => {
    const r = await cli.pep(["peptides", "list", "--all", "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(parseNdjson(r.out))).toEqual(ids(all));
    expect(r.sent).toBe(Math.ceil(all.length / 100));
  });

  it("--all --page-size 25 walks every page", async () => {
    const r = await cli.pep(["peptides", "list", "--all", "--page-size", "25", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(all));
    expect(r.sent).toBe(Math.ceil(all.length / 25));
  });

  it("--cursor resumes where the hint on stderr said", async () => {
    const first = await cli.pep(["peptides", "list", "--limit", "5"], { tty: true, columns: 120 });
    // On a terminal the line is folded to the width: read it unfolded.
    const told = visible(first.err)
      .trimEnd()
      .replace(/\n(?!note: |to continue: )/g, " ");
    const cursor = /^to continue: pep .* '?--cursor=([^'\s]+)'?$/m.exec(told)?.[1];
    expect(cursor).toBeDefined();
    const next = await cli.pep(["peptides", "list", "--limit", "5", "--cursor", cursor!, "-o", "json"]);
    expect(next.code, next.err).toBe(0);
    expect(ids(json(next.out))).toEqual(ids(all).slice(5, 10));
  });

  it("--cursor takes the API's next_cursor", async () => {
    const page = await getJson(cli.baseUrl, "/peptides", { limit: 7 });
    const r = await cli.pep([
      "peptides",
      "list",
      "--cursor",
      page.body.pagination!.next_cursor!,
      "--limit",
      "7",
      "-o",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(all).slice(7, 14));
  });

  it("--fields is sent to the API and used as the columns", async () => {
    const r = await cli.pep([
      "peptides",
      "list",
      "--fields",
      "id,name,regulatory_status",
      "-o",
      "json",
      "--limit",
      "4",
    ]);
    expect(r.code, r.err).toBe(0);
    for (const p of json(r.out)) expect(Object.keys(p).sort()).toEqual(["id", "name", "regulatory_status"]);
    const csv = await cli.pep(["peptides", "list", "--fields", "name,regulatory_status", "-o", "csv", "--limit", "4"]);
    expect(csv.out.split("\r\n")[0]).toBe("name,regulatory_status");
    expect(parseCsv(csv.out).map((x) => x.name)).toEqual(all.slice(0, 4).map((p) => p.name));
    const table = await cli.pep(["peptides", "list", "--fields", "id,regulatory_status", "--limit", "4"], {
      tty: true,
      columns: 100,
    });
    const header = visible(table.out)
      .split("\n")
      .find((l) => l.trim() !== "")!;
    expect(header.toLowerCase()).toMatch(/id/);
    expect(header.toLowerCase()).toMatch(/regulatory/);
    expect(header.toLowerCase()).not.toMatch(/\bname\b/);
  });

  it("--file writes the output to the file and nothing to stdout", async () => {
    const file = path.join(cli.dir, "peptides.json");
    const r = await cli.pep(["peptides", "list", "-o", "json", "--limit", "12", "--file", file]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("");
    expect(ids(JSON.parse(readFileSync(file, "utf8")) as Item[])).toEqual(ids(all).slice(0, 12));
  });

  describe("filters reach the API as its parameters", () => {
    const cases: [string, string[], Record<string, string>][] = [
      ["--category", ["--category", "cognitive"], { category: "cognitive" }],
      ["--evidence-level", ["--evidence-level", "preclinical"], { evidence_level: "preclinical" }],
      ["--regulatory-status", ["--regulatory-status", "investigational"], { regulatory_status: "investigational" }],
      ["--sort", ["--sort", "-name"], { sort: "-name" }],
      ["--search", ["--search", "zor"], { search: "zor" }],
    ];
    it.each(cases)("%s", async (_flag, argv, query) => {
      const expected = await fetchAll(cli.baseUrl, "/peptides", query);
      const r = await cli.pep(["peptides", "list", ...argv, "--all", "-o", "json"]);
      expect(r.code, r.err).toBe(0);
      expect(ids(json(r.out))).toEqual(ids(expected));
      if (query.sort) {
        // A sort keeps every profile and changes the order.
        expect([...ids(expected)].sort()).toEqual([...ids(all)].sort());
        expect(ids(expected)).not.toEqual(ids(all));
      } else expect(expected.length).toBeLessThan(all.length);
    });

    it("--research-area with an area from `pep research-areas`", async () => {
      const areas = (await getJson(cli.baseUrl, "/research-areas", { limit: 1 })).body.data as Item[];
      const area = String(areas[0]!.name);
      const expected = await fetchAll(cli.baseUrl, "/peptides", { research_area: area });
      expect(expected.length).toBeGreaterThan(0);
      const r = await cli.pep(["peptides", "list", "--research-area", area, "--all", "-o", "json"]);
      expect(r.code, r.err).toBe(0);
      expect(ids(json(r.out))).toEqual(ids(expected));
    });

    it("--research-area with part of an area's name, as pep mcp reads it", async () => {
      const areas = (await getJson(cli.baseUrl, "/research-areas", { limit: 100 })).body.data as Item[];
      const names = areas.map((a) => String(a.name));
      const sleep = names.filter((n) => n.toLowerCase().includes("sleep"));
      expect(sleep).toHaveLength(1);
      const expected = await fetchAll(cli.baseUrl, "/peptides", { research_area: sleep[0]! });
      expect(expected.length).toBeGreaterThan(0);
      const r = await cli.pep(["peptides", "list", "--research-area", "sleep", "--all", "-o", "json"]);
      expect(r.code, r.err).toBe(0);
      expect(ids(json(r.out))).toEqual(ids(expected));
      expect(r.err).toContain(`research area "sleep": ${sleep[0]}`);
    });

    it("--research-area matching several areas or none is refused, naming them, with no list sent", async () => {
      const several = await cli.pep(["peptides", "list", "--research-area", "in"]);
      expect(several.code).toBe(2);
      expect(several.err).toMatch(/--research-area "in" matches \d+ research areas: "/);
      expect(several.out).toBe("");
      const none = await cli.pep(["peptides", "list", "--research-area", "a".repeat(80)]);
      expect(none.code).toBe(2);
      expect(none.err).toMatch(/matches no research area\nhint: `pep research-areas` lists them/);
      expect(none.sent).toBe(1);
    });

    it("filtered by category, every profile is in it", async () => {
      const r = await cli.pep(["peptides", "list", "--category", "longevity", "--all", "-o", "json"]);
      for (const p of json(r.out)) expect(JSON.stringify(p.categories)).toContain("longevity");
    });
  });

  describe("bad values exit 2 naming the flag, and nothing is sent", () => {
    const refused: [string, string[], RegExp][] = [
      ["--page-size 0", ["--page-size", "0"], /--page-size must be a whole number from 1 to 100/],
      ["--page-size 101", ["--page-size", "101"], /--page-size must be a whole number from 1 to 100/],
      ["--limit 0", ["--limit", "0"], /--limit must be a whole number/],
      ["--limit x", ["--limit", "x"], /--limit must be a whole number/],
      ["--search of 201 characters", ["--search", "s".repeat(201)], /--search must be at most 200 characters/],
      ["--search empty", ["--search", ""], /--search must not be empty/],
      [
        "--research-area of 81 characters",
        ["--research-area", "a".repeat(81)],
        /--research-area must be at most 80 characters/,
      ],
      ["--category", ["--category", "weight-loss"], /--category must be one of: fat-loss, cognitive/],
      ["--evidence-level", ["--evidence-level", "strong"], /--evidence-level must be one of: fda-approved/],
      ["--regulatory-status", ["--regulatory-status", "legal"], /--regulatory-status must be one of: approved/],
      ["--sort", ["--sort", "newest"], /--sort must be one of: relevance, name, -name, evidence, updated/],
      ["--fields", ["--fields", "id,price"], /--fields must be a comma-separated list of: id, name/],
      ["--cursor empty", ["--cursor", ""], /--cursor must not be empty/],
      ["--all with --limit", ["--all", "--limit", "5"], /--all and --limit/],
      ["-o bibtex", ["-o", "bibtex"], /bibtex/],
    ];
    it.each(refused)("%s", async (_name, argv, message) => {
      const r = await cli.pep(["peptides", "list", ...argv]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.sent).toBe(0);
      expect(r.out).toBe("");
    });

    const accepted: [string, string[], number][] = [
      ["--page-size 1", ["--page-size", "1", "--limit", "2"], 2],
      ["--page-size 100", ["--page-size", "100", "--limit", "2"], 2],
      ["--limit 1", ["--limit", "1"], 1],
      ["--search of 200 characters", ["--search", "s".repeat(200)], -1],
    ];
    it.each(accepted)("the bound itself is accepted: %s", async (_name, argv, count) => {
      const r = await cli.pep(["peptides", "list", ...argv, "-o", "json"]);
      expect(r.code, r.err).toBe(0);
      expect(r.sent).toBeGreaterThan(0);
      if (count >= 0) expect(json(r.out)).toHaveLength(count);
    });
  });
});

describe("pep peptides get | research | regulatory <slug>", () => {
  const commands: [string, string][] = [
    ["get", "/peptides/{slug}"],
    ["research", "/peptides/{slug}/research"],
    ["regulatory", "/regulatory-status/{slug}"],
  ];

  it.each(commands)("%s: JSON is the API's data", async (verb, p) => {
    const direct = await getJson(cli.baseUrl, p.replace("{slug}", slug));
    const r = await cli.pep(["peptides", verb, slug, "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual(direct.body.data);
    expect(r.sent).toBe(1);
  });

  it.each(commands)("%s: ndjson is one line, csv and tsv one record", async (verb) => {
    const nd = await cli.pep(["peptides", verb, slug, "-o", "ndjson"]);
    expect(nd.code, nd.err).toBe(0);
    expect(parseNdjson(nd.out)).toHaveLength(1);
    const csv = await cli.pep(["peptides", verb, slug, "-o", "csv"]);
    expect(csv.code, csv.err).toBe(0);
    expect(parseCsv(csv.out)).toHaveLength(1);
    const tsv = await cli.pep(["peptides", verb, slug, "-o", "tsv"]);
    expect(tsv.code, tsv.err).toBe(0);
    expect(parseTsv(tsv.out)).toHaveLength(1);
  });

  it.each(commands.flatMap(([verb]) => [80, 160].map((c) => [verb, c] as const)))(
    "%s: a card on a %i-column terminal",
    async (verb, columns) => {
      const r = await cli.pep(["peptides", verb, slug], { tty: true, columns });
      expect(r.code, r.err).toBe(0);
      expect(widestLine(r.out)).toBeLessThanOrEqual(columns);
      expect(visible(r.out)).toContain(String(all[0]!.name));
      expect(visible(r.out)).not.toContain("not_documented");
    },
  );

  it("get: the profile keeps human and preclinical evidence apart in the card", async () => {
    const r = await cli.pep(["peptides", "get", slug], { tty: true, columns: 120 });
    const text = visible(r.out).toLowerCase();
    expect(text).toMatch(/human/);
    expect(text).toMatch(/preclinical/);
  });

  it("get: a name resolves to the canonical profile", async () => {
    const r = await cli.pep(["peptides", "get", String(all[0]!.name), "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as Item).id).toBe(slug);
  });

  it.each(["get", "research", "regulatory", "studies"])(
    "%s: an unknown peptide exits 4 with the API's message",
    async (verb) => {
      const p =
        verb === "regulatory"
          ? "/regulatory-status/no-such-peptide"
          : `/peptides/no-such-peptide${verb === "get" ? "" : `/${verb}`}`;
      const direct = await getJson(cli.baseUrl, p);
      expect(direct.status).toBe(404);
      // For people: one line with the message, status, code and request id.
      const r = await cli.pep(["peptides", verb, "no-such-peptide", "-o", "table"]);
      expect(r.code).toBe(4);
      expect(r.err).toContain(direct.body.error!.message);
      expect(r.err).toMatch(/^error: .* \(HTTP 404, not_found, request req_\w+\)$/m);
      expect(r.out).toBe("");
      // Piped, JSON by default on stdout: the error is still a line for the person.
      const piped = await cli.pep(["peptides", verb, "no-such-peptide"]);
      expect(piped.code).toBe(4);
      expect(piped.err).toMatch(/^error: .* \(HTTP 404, not_found, request req_\w+\)$/m);
      expect(piped.out).toBe("");
      // -o json asked for: one JSON object with the API's envelope fields and the exit code.
      const machine = await cli.pep(["peptides", verb, "no-such-peptide", "-o", "json"]);
      expect(machine.code).toBe(4);
      const o = JSON.parse(machine.err.split("\n").find((l) => l.startsWith("{"))!) as {
        error: { code: string; message: string; request_id: string; status: number };
        exit_code: number;
      };
      expect(o.error.code).toBe("not_found");
      expect(o.error.message).toBe(direct.body.error!.message);
      expect(o.error.status).toBe(404);
      expect(o.exit_code).toBe(4);
      expect(machine.out).toBe("");
    },
  );

  it("an empty slug exits 2 and sends nothing", async () => {
    const r = await cli.pep(["peptides", "get", " "]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/<slug> must not be empty/);
    expect(r.sent).toBe(0);
  });

  it("citations are refused for a profile (exit 2, nothing sent)", async () => {
    const r = await cli.pep(["peptides", "get", slug, "-o", "ris"]);
    expect(r.code).toBe(2);
    expect(r.sent).toBe(0);
  });
});

describe("pep peptides studies <slug>", () => {
  let cited: Item[];
  beforeAll(async () => {
    cited = (await fetchAll(cli.baseUrl, `/peptides/${encodeURIComponent(slug)}/studies`)) as Item[];
  });

  it("lists at most 12 cited studies, as the API has them", async () => {
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.length).toBeLessThanOrEqual(12);
    const r = await cli.pep(["peptides", "studies", slug, "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(cited));
  });

  it("ndjson, csv and tsv carry every study", async () => {
    const nd = await cli.pep(["peptides", "studies", slug, "-o", "ndjson"]);
    expect(ids(parseNdjson(nd.out))).toEqual(ids(cited));
    const csv = await cli.pep(["peptides", "studies", slug, "-o", "csv"]);
    expect(parseCsv(csv.out).map((x) => x.id)).toEqual(ids(cited));
    const tsv = await cli.pep(["peptides", "studies", slug, "-o", "tsv"]);
    expect(parseTsv(tsv.out).map((x) => x.id)).toEqual(ids(cited));
  });

  it.each([80, 160])("table on a %i-column terminal", async (columns) => {
    const r = await cli.pep(["peptides", "studies", slug], { tty: true, columns });
    expect(r.code, r.err).toBe(0);
    expect(widestLine(r.out)).toBeLessThanOrEqual(columns);
    expect(visible(r.out).split("\n").length).toBeGreaterThan(cited.length);
  });

  it.each(["bibtex", "ris"] as const)("%s reads back with one entry per study", async (format) => {
    const r = await cli.pep(["peptides", "studies", slug, "-o", format]);
    expect(r.code, r.err).toBe(0);
    const entries = await readCitations(r.out, format);
    expect(entries).toHaveLength(cited.length);
    expect(entries.map((e) => e.title)).toEqual(cited.map((s) => s.title));
  });

  it("csl-json is an array of CSL items, one per study", async () => {
    const r = await cli.pep(["peptides", "studies", slug, "-o", "csl-json"]);
    expect(r.code, r.err).toBe(0);
    const items = JSON.parse(r.out) as Item[];
    expect(items).toHaveLength(cited.length);
    expect(items.map((i) => i.title)).toEqual(cited.map((s) => s.title));
    for (const i of items) expect(typeof i.type).toBe("string");
  });

  it("--limit 2 --page-size 1 pages through the citations", async () => {
    const r = await cli.pep(["peptides", "studies", slug, "--limit", "2", "--page-size", "1", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(cited).slice(0, 2));
    expect(r.sent).toBe(2);
  });

  it("--page-size 101 exits 2 and sends nothing", async () => {
    const r = await cli.pep(["peptides", "studies", slug, "--page-size", "101"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--page-size/);
    expect(r.sent).toBe(0);
  });
});
