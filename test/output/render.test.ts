import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { InterruptedError } from "../../src/core/errors.js";
import { render } from "../../src/output/render.js";
import { shellQuote } from "../../src/output/shell-quote.js";
import { capture, item, list, run } from "./helpers.js";
import { offers, peptides, disclosure } from "./fixtures.js";

describe("notices", () => {
  it("prints the affiliate disclosure on stderr for machine formats, not with --quiet", async () => {
    for (const format of ["json", "ndjson", "csv", "tsv"] as const) {
      const { out, err } = await run(list("offer", offers, { meta: { affiliate_disclosure: disclosure } }), format);
      expect(err, format).toBe(`${disclosure}\n`);
      expect(out, format).not.toContain(disclosure);
    }
    const quiet = await run(list("offer", offers, { meta: { affiliate_disclosure: disclosure } }), "json", {
      quiet: true,
    });
    expect(quiet.err).toBe("");
    const single = await run(
      item(
        "vendor-detail",
        { name: "A" },
        { affiliate_disclosure: { text: "Affiliate\x1b[31m links", url: "https://example.test/disclosure" } },
      ),
      "json",
    );
    expect(single.err).toBe("Affiliate links https://example.test/disclosure\n");
  });

  it("says nothing of the next cursor (the pipeline tells it once the run has settled)", async () => {
    const result = () => list("peptide", peptides, { nextCursor: "abc123==" });
    expect((await run(result(), "json", { stderrIsTTY: true, progressDelayMs: 60_000 })).err).toBe("");
    expect((await run(result(), "json")).err).toBe("");
  });

  it("quotes a cursor as one shell word that prints inert", () => {
    expect(shellQuote("a b'c")).toBe(`'a b'\\''c'`);
    // The exact cursor, ANSI-C quoted: nothing a terminal acts on, and the shell reads back the same word.
    expect(shellQuote("x\x1b]52;c;AA\x07y'\u009b\u202e")).toBe("$'x\\x1b]52;c;AA\\x07y\\'\\u009b\\u202e'");
  });

  it("shows a spinner with page and item counts on a terminal, and clears it before other notices", async () => {
    let pages = 0;
    let seen = 0;
    const stderr = capture();
    // Each item comes once the spinner has drawn a frame (it loads ora first): no timing to guess.
    const drawn = async () => {
      for (let i = 0; i < 2000 && !stderr.text().includes("Fetching"); i++) await new Promise((r) => setTimeout(r, 5));
    };
    async function* slow() {
      for (let i = 0; i < 3; i++) {
        pages = i + 1;
        await drawn();
        seen++;
        yield peptides[0];
      }
    }
    await run(
      list("peptide", slow(), { meta: { affiliate_disclosure: disclosure }, progress: () => ({ pages, items: seen }) }),
      "json",
      {
        stderr: stderr.stream,
        stderrIsTTY: true,
        progressDelayMs: 0,
      },
    );
    const err = stderr.text();
    expect(err).toMatch(/Fetching peptides: page \d, \d items?/);
    // The disclosure comes after the spinner was erased, on a clean line.
    const last = err.lastIndexOf(disclosure);
    expect(last).toBeGreaterThan(err.lastIndexOf("Fetching"));
    expect(err.endsWith(`${disclosure}\n`)).toBe(true);
  });

  it("shows no spinner for quick runs, off a terminal, or with --quiet", async () => {
    expect((await run(list("peptide", peptides), "json", { stderrIsTTY: true })).err).toBe("");
    expect((await run(list("peptide", peptides), "json", { stderrIsTTY: false, progressDelayMs: 0 })).err).toBe("");
    expect(
      (await run(list("peptide", peptides), "json", { stderrIsTTY: true, quiet: true, progressDelayMs: 0 })).err,
    ).toBe("");
  });
});

describe("results", () => {
  it("prints text as is and nothing for none", async () => {
    expect((await run({ kind: "text", text: "complete -F _pep pep\n" }, "table")).out).toBe("complete -F _pep pep\n");
    expect((await run({ kind: "none" }, "json")).out).toBe("");
  });

  it("stops with InterruptedError when the run is aborted", async () => {
    const controller = new AbortController();
    async function* items() {
      yield peptides[0];
      controller.abort();
      yield peptides[1];
    }
    await expect(run(list("peptide", items()), "json", { signal: controller.signal })).rejects.toBeInstanceOf(
      InterruptedError,
    );
  });

  it("leaves a list cut by an error visibly unfinished", async () => {
    async function* failing() {
      yield peptides[0];
      throw new Error("boom");
    }
    const out = capture();
    const options = {
      format: "json" as const,
      out: out.stream,
      outIsTTY: false,
      columns: 80,
      color: false,
      hyperlinks: false,
      stderr: capture().stream,
      stderrIsTTY: false,
      quiet: false,
    };
    await expect(render(list("peptide", failing()), options)).rejects.toThrow("boom");
    expect(out.text().startsWith("[\n  {")).toBe(true);
    expect(() => JSON.parse(out.text())).toThrow();
  });
});

describe("lazy loading", () => {
  it("bundled with code splitting, the entry and the json writer load no table, card, colour or citation code", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "pep-split-"));
    try {
      const result = await build({
        entryPoints: ["src/output/render.ts"],
        outdir: dir,
        bundle: true,
        splitting: true,
        format: "esm",
        platform: "node",
        metafile: true,
        write: false,
        logLevel: "silent",
      });
      const outputs = result.metafile.outputs;
      const staticClosure = (file: string, seen = new Set<string>()): Set<string> => {
        for (const imp of outputs[file]?.imports ?? []) {
          if (imp.kind === "import-statement" && !imp.external && !seen.has(imp.path)) {
            seen.add(imp.path);
            staticClosure(imp.path, seen);
          }
        }
        return seen;
      };
      const inputsOf = (files: Iterable<string>) => [...files].flatMap((f) => Object.keys(outputs[f]?.inputs ?? {}));
      const entry = Object.keys(outputs).find((f) => outputs[f]!.entryPoint === "src/output/render.ts")!;
      const jsonChunk = Object.keys(outputs).find((f) =>
        Object.keys(outputs[f]!.inputs).includes("src/output/json.ts"),
      )!;
      const loadedForJson = inputsOf([entry, ...staticClosure(entry), jsonChunk, ...staticClosure(jsonChunk)]);
      expect(loadedForJson).toContain("src/output/json.ts");
      for (const heavy of [
        "chalk",
        "ora",
        "cli-table3",
        "src/output/card-writer.ts",
        "src/output/table.ts",
        "src/output/citation/",
        "csv-stringify",
      ]) {
        expect(
          loadedForJson.some((p) => p.includes(heavy)),
          heavy,
        ).toBe(false);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
