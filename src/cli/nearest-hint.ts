/**
 * A slug or vendor id the API did not find (404) gets the nearest names, asked of the
 * API as `pep mcp` asks (api/nearest-names.ts), and the command with the first of them:
 * `pep prices --peptide brevritarin` → Did you mean `brevritarin-81`?
 */
import { nearestPeptides, nearestVendors, type NearName } from "../api/nearest-names.js";
import { ApiError } from "../core/errors.js";
import { cleanLine } from "../core/sanitize.js";
import type { ParsedInvocation } from "./invocation.js";
import { shellQuote } from "../output/shell-quote.js";
import type { RunContext } from "./run-context.js";

/** What the run named that was not found: a peptide (`--peptide`, a peptides command's slug) or a vendor. */
function missing(inv: ParsedInvocation): { kind: "peptide" | "vendor"; word: string } | undefined {
  const { def, input } = inv;
  const opts = input.opts as Record<string, unknown>;
  if (typeof opts.peptide === "string" && opts.peptide.trim() !== "") return { kind: "peptide", word: opts.peptide };
  if (input.args.length !== 1 || input.args[0] === "-") return undefined;
  if (def.path[0] === "peptides" && def.path[1] !== "list") return { kind: "peptide", word: input.args[0]! };
  if (def.path[0] === "vendors" && (def.path[1] === "get" || def.path[1] === "shipping"))
    return { kind: "vendor", word: input.args[0]! };
  return undefined;
}

/** Adds the nearest names to a 404's hints; true when it found some. Never fails the run itself. */
export async function addNearestNames(inv: ParsedInvocation, ctx: RunContext, err: unknown): Promise<boolean> {
  if (!(err instanceof ApiError) || err.status !== 404) return false;
  const what = missing(inv);
  if (!what) return false;
  let near: NearName[];
  try {
    const client = await ctx.client();
    near = (
      what.kind === "peptide"
        ? await nearestPeptides(client, what.word, ctx.io.signal)
        : await nearestVendors(client, what.word, ctx.io.signal)
    ).filter((n) => n.id !== what.word);
  } catch {
    return false;
  }
  if (near.length === 0) return false;
  const [best, ...others] = near;
  const argv = inv.argv.map((w) => (w === what.word ? best!.id : w.replace(`=${what.word}`, `=${best!.id}`)));
  const command = `pep ${argv.map((w) => shellQuote(w)).join(" ")}`;
  err.hints.push(`Did you mean \`${cleanLine(best!.id)}\`? (\`${cleanLine(command)}\`)`);
  if (others.length > 0)
    err.hints.push(`Other ${what.kind}s named like it: ${others.map((o) => `\`${cleanLine(o.id)}\``).join(", ")}.`);
  return true;
}
