// 7. Batch lookups: 200 `peptides get` as one run (ids on stdin) against a shell loop of
// 200 single runs (target >= 10x faster) and against a curl loop of the same 200
// requests (target >= 2x faster). 8. --jq on a 10,000-study export against piping the
// same export into the system's jq (reported; skipped without jq). Self-contained: its
// own sandbox, its own rows.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startBenchSandbox } from "./sandbox.mjs";
import { EXPORT_LIMIT } from "./export.mjs";
import { interleave, lineCount, timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const BATCH_IDS = 200;
export const BATCH_RUNS = 3;
export const JQ_RUNS = 3;
const JQ_EXPORT = ["studies", "export", "-o", "ndjson", "--page-size", "100", "--limit", String(EXPORT_LIMIT)];

/** The ids of every profile, repeated in order up to `n`. */
function idsFile(ctx, env) {
  const r = timed(ctx.node, [ctx.pep, "peptides", "list", "--all", "-o", "json"], { env, cwd: ctx.root });
  const all = JSON.parse(r.stdout).map((p) => p.id);
  const ids = Array.from({ length: BATCH_IDS }, (_, i) => all[i % all.length]);
  const file = path.join(ctx.tmp, "ids.txt");
  writeFileSync(file, `${ids.join("\n")}\n`);
  return { file, distinct: all.length };
}

export async function runBatch(ctx) {
  const rows = [];
  const notes = [];
  const sandbox = await startBenchSandbox({ sandboxModule: ctx.sandboxModule, scale: 40 });
  try {
    // Every answer fetched whole: no run is helped by an ETag cache another filled.
    const env = { ...ctx.env, PEP_BASE_URL: sandbox.baseUrl, PEP_NO_CACHE: "1" };
    const { file, distinct } = idsFile(ctx, env);
    const out = (name) => path.join(ctx.tmp, `batch-${name}.out`);
    const check = (name, expected) => {
      const n = lineCount(readFileSync(out(name), "utf8"));
      if (n !== expected) throw new Error(`batch ${name}: wrote ${n} lines, not ${expected}`);
    };
    const pepLine = `"${ctx.node}" "${ctx.pep}"`;
    const variants = [
      () => {
        const r = timed("bash", ["-c", `${pepLine} peptides get - -o ndjson < "${file}"`], {
          env,
          cwd: ctx.root,
          outFile: out("batch"),
        });
        check("batch", BATCH_IDS);
        return r;
      },
      () => {
        const r = timed(
          "bash",
          ["-c", `while read -r id; do ${pepLine} peptides get "$id" -o json | tr -d '\\n'; echo; done < "${file}"`],
          { env, cwd: ctx.root, outFile: out("loop") },
        );
        check("loop", BATCH_IDS);
        return r;
      },
    ];
    if (ctx.tools.curl)
      variants.push(() => {
        const r = timed(
          "bash",
          [
            "-c",
            `while read -r id; do curl -sS --fail -H "Authorization: Bearer $PEP_API_KEY" "${sandbox.baseUrl}/peptides/$id"; echo; done < "${file}"`,
          ],
          { env, cwd: ctx.root, outFile: out("curl") },
        );
        check("curl", BATCH_IDS);
        return r;
      });
    ctx.log(`  ${BATCH_IDS} lookups: batch, shell loop${ctx.tools.curl ? ", curl loop" : ""}; ${BATCH_RUNS} rounds`);
    const [batch, loop, curl] = interleave(variants, BATCH_RUNS, 0);
    rows.push(
      ratioRow({
        id: "7a",
        figure: `${BATCH_IDS} \`peptides get\`: a shell loop of single runs vs one batch run (ids on stdin)`,
        unit: "ms",
        measured: loop,
        against: batch,
        target: ">= 10x",
        meets: (r) => r >= 10,
      }),
    );
    if (curl)
      rows.push(
        ratioRow({
          id: "7b",
          figure: `${BATCH_IDS} lookups: a curl loop vs one \`peptides get -\` batch run`,
          unit: "ms",
          measured: curl,
          against: batch,
          target: ">= 2x",
          meets: (r) => r >= 2,
        }),
      );
    notes.push(
      `Batch (7): the ${BATCH_IDS} ids are the sandbox's ${distinct} profile ids repeated in order, fetched whole each time (PEP_NO_CACHE=1); the batch runs at the default --concurrency 4.`,
    );

    if (ctx.tools.jq) {
      const jqArgs = [...JQ_EXPORT, "--jq", ".id", "--jq-raw"];
      ctx.log(`  --jq vs | jq on ${EXPORT_LIMIT} studies, ${JQ_RUNS} rounds`);
      const [own, piped] = interleave(
        [
          () => {
            const r = timed(ctx.node, [ctx.pep, ...jqArgs], { env, cwd: ctx.root, outFile: out("jq-own") });
            check("jq-own", EXPORT_LIMIT);
            return r;
          },
          () => {
            const r = timed("bash", ["-c", `${pepLine} ${JQ_EXPORT.join(" ")} | jq -r .id`], {
              env,
              cwd: ctx.root,
              outFile: out("jq-piped"),
            });
            check("jq-piped", EXPORT_LIMIT);
            return r;
          },
        ],
        JQ_RUNS,
        0,
      );
      if (readFileSync(out("jq-own"), "utf8") !== readFileSync(out("jq-piped"), "utf8"))
        throw new Error("--jq and | jq printed different output");
      rows.push(
        ratioRow({
          id: "8a",
          figure: `export ${EXPORT_LIMIT.toLocaleString("en-US")} studies -o ndjson: \`--jq .id --jq-raw\` vs \`| jq -r .id\``,
          unit: "ms",
          measured: own,
          against: piped,
          target: "— (reported)",
        }),
      );
      const version = timed("jq", ["--version"], { env }).stdout.trim();
      notes.push(
        `--jq (8): the system's jq is ${version}; pep's is jq-wasm's jq 1.8.2. Both outputs were checked to be the same ${EXPORT_LIMIT} lines.`,
      );
    } else {
      notes.push("--jq (8) not compared: no jq on PATH.");
    }
  } finally {
    await sandbox.close();
  }
  return { rows, notes };
}
