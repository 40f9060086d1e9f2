// 10. Offline: `pep --offline studies list --peptide X -o json` against the same list online
// from the loopback sandbox (the ETag cache on, as a user runs it), in interleaved rounds.
// The library is filled once, untimed, by `pep sync peptides studies` from the same
// sandbox; both runs must print the same bytes. Needs node:sqlite (Node 22.5 and later).
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { interleave, timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const OFFLINE_RUNS = 20;
export const offlineArgs = (peptide) => ["studies", "list", "--peptide", peptide, "-o", "json"];

export function runOffline(ctx, sandbox) {
  if (ctx.nodeMajor < 22)
    return { rows: [], notes: [`10. offline: skipped, Node ${ctx.nodeMajor} has no node:sqlite.`] };
  const env = {
    ...ctx.env,
    PEP_BASE_URL: sandbox.baseUrl,
    PEP_DATA_DIR: mkdtempSync(path.join(ctx.tmp, "data-")),
    PEP_CACHE_DIR: mkdtempSync(path.join(ctx.tmp, "cache-")),
  };
  const pep = (args) => timed(ctx.node, [ctx.pep, ...args], { env, cwd: ctx.root });
  const synced = pep(["sync", "peptides", "studies", "-o", "json"]);
  const summary = JSON.parse(synced.stdout);
  ctx.log(`  library filled: ${summary.items} items in ${(synced.ms / 1000).toFixed(1)} s`);
  // The peptide citing the most studies: the longest answer of the list.
  const peptides = JSON.parse(pep(["--offline", "peptides", "list", "--all", "-o", "json"]).stdout);
  const cites = (p) => p.evidence.human_studies + p.evidence.preclinical_studies + p.evidence.secondary_reports;
  const peptide = peptides.reduce((a, b) => (cites(b) > cites(a) ? b : a)).id;
  const args = offlineArgs(peptide);
  const online = pep(args).stdout;
  const offline = pep(["--offline", ...args]).stdout;
  if (offline !== online || online.length < 3) throw new Error("offline and online printed different lists");
  ctx.log(`  --offline vs online, ${OFFLINE_RUNS} interleaved pairs (--peptide ${peptide})`);
  const [off, on] = interleave([() => pep(["--offline", ...args]).ms, () => pep(args).ms], OFFLINE_RUNS, 2);
  return {
    rows: [
      ratioRow({
        id: "10a",
        figure: `\`pep --offline studies list --peptide X -o json\` vs the same list online (loopback sandbox, ETag cache on)`,
        unit: "ms",
        measured: off,
        against: on,
        target: "≤ 1x",
        meets: (r) => r <= 1,
      }),
    ],
    notes: [
      `10. offline: the library (SQLite, ${summary.items} peptides and studies at scale 40) filled once by \`pep sync peptides studies\` in ${(synced.ms / 1000).toFixed(1)} s, untimed; X = ${peptide}, the peptide citing the most studies; both runs print the same ${Buffer.byteLength(online)} bytes.`,
    ],
  };
}
