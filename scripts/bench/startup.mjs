// 1. Start-up: pep --version, --help and a full `peptides list` against `node -e 0`,
// interleaved (A B A B) so drift on a shared machine falls on both alike.
import { interleave, timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const STARTUP_RUNS = 20;

export function startupCommands(ctx) {
  return [
    { id: "1a", label: "pep --version", args: ["--version"], target: 1.3, check: (out) => out.trim() === ctx.version },
    { id: "1b", label: "pep --help", args: ["--help"], target: 1.3, check: (out) => out.startsWith("Usage: pep") },
    {
      id: "1c",
      label: "pep peptides list -o json",
      args: ["peptides", "list", "-o", "json"],
      target: 2,
      check: (out) => Array.isArray(JSON.parse(out)) && JSON.parse(out).length > 0,
    },
  ];
}

export function runStartup(ctx, sandbox) {
  const env = { ...ctx.env, PEP_BASE_URL: sandbox.baseUrl };
  const rows = [];
  for (const cmd of startupCommands(ctx)) {
    const first = timed(ctx.node, [ctx.pep, ...cmd.args], { env, cwd: ctx.root });
    if (!cmd.check(first.stdout)) throw new Error(`${cmd.label}: unexpected output: ${first.stdout.slice(0, 200)}`);
    ctx.log(`  ${cmd.label} vs node -e 0, ${STARTUP_RUNS} pairs`);
    const [pep, bare] = interleave(
      [() => timed(ctx.node, [ctx.pep, ...cmd.args], { env, cwd: ctx.root }), () => timed(ctx.node, ["-e", "0"], { env, cwd: ctx.root })],
      STARTUP_RUNS,
    );
    rows.push(
      ratioRow({
        id: cmd.id,
        figure: `\`${cmd.label}\` vs \`node -e 0\``,
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
