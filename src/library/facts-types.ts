/**
 * The shapes of what a manifest says of the library (library/library-facts.ts reads them),
 * apart so that core/command-context.ts can name them without reaching the library's code.
 */
import type { LibraryResource } from "../api/enums.js";

/** The part of a library's connection these reads use. */
export interface FactsSource {
  readonly dialect: "sqlite" | "postgres";
  /** A file path, or a URL with its password masked. */
  readonly location: string;
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** One resource's last complete walk. */
export interface WalkFacts {
  resource: LibraryResource;
  syncId: number;
  /** When the sync the walk belongs to started (the walk began at or after it). */
  startedAt: string | undefined;
  /** When the walk ended. */
  finishedAt: string;
  items: number;
}

export interface LibraryFacts {
  dialect: "sqlite" | "postgres";
  location: string;
  schemaVersion: number | undefined;
  lastSync:
    | {
        id: number;
        startedAt: string;
        finishedAt: string;
        status: string;
        baseUrl: string | undefined;
        apiVersion: string | undefined;
        synthetic: boolean;
      }
    | undefined;
  /** The API's name as its index said at the last sync that asked (none: a library synced before it was kept). */
  apiName: string | undefined;
  /** The complete walks of the resources asked (all that have one, when none are named). */
  walks: WalkFacts[];
}

/** A stored list page: the request a sync sent for it, as the library keeps it. */
export interface StoredPage {
  resource: LibraryResource;
  path: string;
  /** The query as sent: the walk's own (`limit=100`), then the page's cursor. */
  query: string;
  cursor: string;
  etag: string | undefined;
  fetchedAt: string;
  itemIds: string[];
}
