/**
 * The last stage of a `--file --manifest` export: once the file is in place, its manifest
 * (output/manifest.ts) from what the run collected (cli/run-context.ts `provenance()`).
 */
import { OutputError } from "../core/errors.js";
import type { Prepared } from "./prepared.js";

export async function writeRunManifest(p: Prepared, items: number): Promise<void> {
  const { writeManifest } = await import("../output/manifest.js");
  const prov = p.ctx.provenance();
  const library = prov.library;
  const synthetic = p.ctx.synthetic();
  try {
    await writeManifest({
      argv: p.inv.argv,
      file: p.inv.globals.file ?? p.file!,
      path: p.file!,
      format: p.format,
      source: library ? "library" : p.inv.sandbox || synthetic ? "sandbox" : "api",
      baseUrl: library ? library.sync.baseUrl : (await p.config()).baseUrl,
      apiVersion: prov.apiVersion,
      pepVersion: typeof __PEP_VERSION__ === "string" ? __PEP_VERSION__ : "0.0.0-dev",
      synthetic,
      library: library
        ? {
            syncId: library.sync.id,
            asOf: library.asOf,
            syncedAt: library.sync.finishedAt,
            location: library.where,
            walks: Object.entries(library.walks).map(([resource, w]) => ({
              resource,
              syncId: w?.syncId,
              finishedAt: w?.finishedAt,
            })),
          }
        : undefined,
      startedAt: p.startedAt,
      finishedAt: new Date(),
      // A list finished from its partial: the file holds the earlier run's items too.
      items: items + (p.partial?.items ?? 0),
      pages: prov.pages,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutputError(`--manifest: cannot write ${p.inv.globals.file}.manifest.json${code ? ` (${code})` : ""}`, {
      cause: err,
      hints: [`${p.inv.globals.file} itself was written whole.`],
    });
  }
}
