/**
 * Opening a record's page in the browser, for `pep browse` and `--web`: loaded only when a
 * run opens one.
 */
import type { Deps, PageOpening } from "../core/command-context.js";
import { type IO, launchDetached } from "../core/io.js";

/** Opens `url` with the program `openerFor` picks; `deps.launch` stands in for starting it in tests. */
export async function openPage(url: string, io: IO, deps: Deps): Promise<PageOpening> {
  const { openerFor } = await import("../core/browser.js");
  const opener = openerFor(url, io.env, io.platform ?? "linux");
  if ("none" in opener) return { opened: false, reason: opener.none };
  const launched = await (deps.launch ?? launchDetached)(opener.argv, io.env);
  if (launched.started) return { opened: true, via: opener.via };
  const program = opener.via === opener.argv[0] ? opener.via : `${opener.argv[0]} (from ${opener.via})`;
  return { opened: false, reason: `${program} could not be started (${launched.reason})` };
}
