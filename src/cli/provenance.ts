/**
 * Where a run's data came from, collected for `--manifest` (output/manifest.ts) and only
 * then: each request as sent and its answer, the API version the answers named, the
 * library an offline run answered from, and what a library command (`pep sql`,
 * `pep changes`) read.
 */
import type { ClientEvent, Meta } from "../http/client-types.js";
import type { LibraryAnswer } from "../core/command-context.js";
import type { LibraryFacts } from "../library/library-facts.js";
import type { LibraryProvenance } from "../offline/open-offline.js";

/** What a request was sent for: the answer itself, or the manifest's own look at the index or at a name. */
export type RequestRole = "answer" | "index" | "resolve";

/** One request as sent (its URL, credentials still in it: the manifest masks them) and its answer. */
export interface SeenRequest {
  url: string;
  status: number;
  requestId: string | undefined;
  etag: string | undefined;
  fromCache: boolean;
  role: RequestRole;
}

export interface Provenance {
  /** Each request answered, in the order the answers came. */
  pages: SeenRequest[];
  /** `meta.api_version` of the answers, when they said. */
  apiVersion: string | undefined;
  /**
   * The library an offline run answered from: where it is, its last finished sync, and
   * per resource that answered the complete walk its answer came from (undefined: none).
   */
  library: LibraryProvenance | undefined;
  /** What a library command answered from: its statement and the library's facts. */
  answer: { query: LibraryAnswer["query"]; facts: LibraryFacts } | undefined;
  /** What the requests sent from now on are for (the manifest's own look-ups set it). */
  role: RequestRole;
}

/** Collects, with --manifest, each request and answer, the API version, and a library command's answer. */
export function provenanceOf(wanted: boolean, listeners: Array<(e: ClientEvent) => void>) {
  const record: Provenance = {
    pages: [],
    apiVersion: undefined,
    library: undefined,
    answer: undefined,
    role: "answer",
  };
  if (wanted)
    listeners.push((e) => {
      if (e.type === "response")
        record.pages.push({
          url: e.url,
          status: e.status,
          requestId: e.requestId,
          etag: e.etag,
          fromCache: e.fromCache,
          role: record.role,
        });
    });
  const onMeta = wanted
    ? (meta: Meta) => {
        if (typeof meta?.api_version === "string") record.apiVersion = meta.api_version;
      }
    : undefined;
  const answeredFrom = async (answer: LibraryAnswer): Promise<void> => {
    if (wanted) record.answer = { query: answer.query, facts: await answer.facts() };
  };
  return { record, onMeta, answeredFrom };
}
