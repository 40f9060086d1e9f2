// 1. Start-up: pep --version, --help and a full `peptides list` against `node -e 0`,
// interleaved (A B A B) so drift on a shared machine falls on both alike. Run once with
// the machine's Node (ids 1a…) and once with the current Node 24 (ids 1a-24…), so the two
// read side by side; startup-floor.mjs adds the floors of a list command.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { interleave, timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const STARTUP_RUNS = 20;

export function startupCommands(ctx) {
  return [
    { id: "1a", label: "pep --version", args: ["--version"], target: 1.3, check: (out) => out.trim() === ctx.version },
    { id: "1b", label: "pep --help", args: ["--help"], target: 1.3, check: (out) => /^Usage: pep/m.test(out) },
    {
      id: "1c",
      label: "pep peptides list -o json",
      args: ["peptides", "list", "-o", "json"],
      target: 2,
      check: (out) => Array.isArray(JSON.parse(out)) && JSON.parse(out).length > 0,
    },
  ];
}

/** `node`: { bin, major, suffix } of the Node that runs every command ("" or "-24" on the ids). */
export function runStartup(ctx, sandbox, node = { bin: ctx.node, major: ctx.nodeMajor, suffix: "" }) {
  const env = { ...ctx.env, PEP_BASE_URL: sandbox.baseUrl };
  const rows = [];
  for (const cmd of startupCommands(ctx)) {
    const first = timed(node.bin, [ctx.pep, ...cmd.args], { env, cwd: ctx.root });
    if (!cmd.check(first.stdout)) throw new Error(`${cmd.label}: unexpected output: ${first.stdout.slice(0, 200)}`);
    ctx.log(`  Node ${node.major}: ${cmd.label} vs node -e 0, ${STARTUP_RUNS} pairs`);
    const [pep, bare] = interleave(
      [
        () => timed(node.bin, [ctx.pep, ...cmd.args], { env, cwd: ctx.root }),
        () => timed(node.bin, ["-e", "0"], { env, cwd: ctx.root }),
      ],
      STARTUP_RUNS,
    );
    rows.push(
      ratioRow({
        id: `${cmd.id}${node.suffix}`,
        figure: `Node ${node.major}: \`${cmd.label}\` vs \`node -e 0\``,
        unit: "ms",
        measured: pep,
        against: bare,
        target: `≤ ${cmd.target}x`,
        meets: (r) => r <= cmd.target,
      }),
    );
  }
  return rows;
}

/**
 * Section 1 on each Node: the machine's, then the current Node 24 from the npm registry
 * (scripts/test-node.sh --fetch 24, cached with the CI matrix's releases). Returns the rows
 * and notes; a Node 24 that cannot be fetched is a note, not a silent gap.
 */
export function runStartupSection(ctx, sandbox, runFloors) {
  const legs = [{ bin: ctx.node, major: ctx.nodeMajor, suffix: "", target: ctx.nodeMajor >= 24 }];
  const notes = [];
  if (ctx.nodeMajor !== 24) {
    const r = spawnSync("bash", [path.join(ctx.root, "scripts", "test-node.sh"), "--fetch", "24"], {
      encoding: "utf8",
    });
    const bin = r.stdout.trim().split("\n").at(-1);
    if (r.status === 0 && bin) legs.push({ bin, major: 24, suffix: "-24", target: true });
    else
      notes.push(`Node 24 rows not run: scripts/test-node.sh --fetch 24 failed: ${r.stderr.trim().split("\n").at(-1)}`);
  }
  const rows = [];
  for (const node of legs) {
    node.version = spawnSync(node.bin, ["--version"], { encoding: "utf8" }).stdout.trim();
    rows.push(...runStartup(ctx, sandbox, node), ...runFloors(ctx, sandbox, node));
  }
  notes.push(
    `Start-up rows ran on ${legs.map((n) => `Node ${n.version} (${n.bin === ctx.node ? "this machine's" : n.bin.replace(ctx.tmp, "<tmp>")})`).join(" and ")}.`,
  );
  return { rows, notes, legs };
}
