/**
 * The last stage of a `--file --manifest` export: once the file is in place, its manifest
 * (output/manifest.ts) from what the run collected (cli/provenance.ts): for an answer of
 * the API, the index and the names it resolved, asked now (cli/manifest-lookups.ts); for
 * an answer of the library (`--offline`, `pep sql`, `pep changes`), the library's facts
 * and the stored request of each page read (library/library-facts.ts).
 */
import { OutputError } from "../core/errors.js";
import type { LibraryResource } from "../api/enums.js";
import type { LibraryFacts } from "../library/library-facts.js";
import type { ManifestFacts, ManifestLibrary } from "../output/manifest.js";
import type { Prepared } from "./prepared.js";
import type { Provenance } from "./provenance.js";

/** What the export wrote, as the pipeline watched it. */
export interface Written {
  items: number;
  /** Items skipped: their id was written already. */
  duplicates: number;
  /** The ids written (those of a finished partial first), when watched. */
  ids: readonly string[];
}

/** The path of the base URL the library was synced from (`/v1`), which its requests' paths began with. */
function basePath(baseUrl: string | undefined): string {
  try {
    return baseUrl === undefined ? "" : new URL(baseUrl).pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}

/** An offline answer's library: its facts, the walks that answered, the stored pages holding what was written. */
async function offlineLibrary(
  prov: Provenance,
  ids: readonly string[],
): Promise<{ library: ManifestLibrary; facts: LibraryFacts | undefined }> {
  const lib = prov.library!;
  const read = Object.keys(lib.walks) as LibraryResource[];
  const { libraryFacts, storedPages } = await import("../library/library-facts.js");
  const facts = lib.source ? await libraryFacts(lib.source, read) : undefined;
  const pages: Array<NonNullable<ManifestLibrary["pages"]>[number]> = [];
  if (lib.source)
    for (const resource of read) {
      const wanted = new Set([...ids, ...lib.resolved.filter((r) => r.resource === resource).map((r) => r.id)]);
      for (const page of await storedPages(lib.source, resource, wanted))
        pages.push({ ...page, path: `${basePath(lib.sync.baseUrl)}${page.path}` });
    }
  return {
    facts,
    library: {
      syncId: lib.sync.id,
      syncedAt: lib.sync.finishedAt,
      asOf: lib.asOf,
      location: lib.where,
      dialect: facts?.dialect,
      schemaVersion: facts?.schemaVersion,
      walks: read.map((resource) => {
        const w = lib.walks[resource];
        const f = facts?.walks.find((x) => x.resource === resource);
        return { resource, syncId: w?.syncId, finishedAt: w?.finishedAt, startedAt: f?.startedAt, items: w?.items };
      }),
      pages,
    },
  };
}

/** A library command's answer: the library's facts and its statement as run. */
function commandLibrary(answer: NonNullable<Provenance["answer"]>): ManifestLibrary {
  const { facts, query } = answer;
  return {
    syncId: facts.lastSync?.id,
    syncedAt: facts.lastSync?.finishedAt,
    location: facts.location,
    dialect: facts.dialect,
    schemaVersion: facts.schemaVersion,
    walks: facts.walks.map((w) => ({
      resource: w.resource,
      syncId: w.syncId,
      finishedAt: w.finishedAt,
      startedAt: w.startedAt,
      items: w.items,
    })),
    query,
  };
}

/** The facts of the manifest, by where the answer came from. */
async function sourceFacts(p: Prepared, written: Written): Promise<Partial<ManifestFacts>> {
  const prov = p.ctx.provenance();
  const answer = prov.answer;
  if (answer)
    return {
      source: "library",
      baseUrl: answer.facts.lastSync?.baseUrl,
      apiVersion: answer.facts.lastSync?.apiVersion,
      api: { name: answer.facts.apiName, version: answer.facts.lastSync?.apiVersion },
      synthetic: p.ctx.synthetic() || answer.facts.lastSync?.synthetic === true,
      library: commandLibrary(answer),
      resolved: [],
    };
  if (prov.library) {
    const { library, facts } = await offlineLibrary(prov, written.ids);
    return {
      source: "library",
      baseUrl: prov.library.sync.baseUrl,
      apiVersion: prov.apiVersion,
      api: { name: facts?.apiName, version: prov.library.sync.apiVersion },
      synthetic: p.ctx.synthetic() || facts?.lastSync?.synthetic === true,
      library,
      resolved: prov.library.resolved.map((r) => ({ ...r, by: "library" as const })),
    };
  }
  const baseUrl = (await p.config()).baseUrl;
  const asked =
    baseUrl && prov.pages.length > 0
      ? await (await import("./manifest-lookups.js")).lookUp(await p.ctx.client(), prov, baseUrl, p.io.signal)
      : undefined;
  const synthetic = p.ctx.synthetic();
  return {
    source: p.inv.sandbox || synthetic ? "sandbox" : "api",
    baseUrl,
    apiVersion: prov.apiVersion ?? asked?.api.version,
    api: asked?.api,
    synthetic,
    library: undefined,
    resolved: asked?.resolved ?? [],
  };
}

export async function writeRunManifest(p: Prepared, written: Written): Promise<void> {
  const { writeManifest, removeManifest } = await import("../output/manifest.js");
  try {
    const from = await sourceFacts(p, written);
    const prov = p.ctx.provenance();
    await writeManifest({
      argv: p.inv.argv,
      file: p.inv.globals.file ?? p.file!,
      path: p.file!,
      format: p.format,
      pepVersion: typeof __PEP_VERSION__ === "string" ? __PEP_VERSION__ : "0.0.0-dev",
      source: from.source!,
      baseUrl: from.baseUrl,
      apiVersion: from.apiVersion,
      api: from.api,
      synthetic: from.synthetic!,
      library: from.library,
      resolved: from.resolved,
      startedAt: p.startedAt,
      finishedAt: new Date(),
      // A list finished from its partial: the file holds the earlier run's items too.
      items: written.items + (p.partial?.items ?? 0),
      duplicates: written.duplicates,
      pages: prov.pages,
    });
  } catch (err) {
    // Stopped (Ctrl-C) during the manifest's look-ups: the run ends as stopped, not as a
    // failed write, and an older manifest, which describes another file, goes.
    if (p.io.signal.aborted) {
      await removeManifest(p.file!);
      throw err;
    }
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutputError(`--manifest: cannot write ${p.inv.globals.file}.manifest.json${code ? ` (${code})` : ""}`, {
      cause: err,
      hints: [`${p.inv.globals.file} itself was written whole.`],
    });
  }
}
