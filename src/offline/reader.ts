/**
 * What `--offline` reads from the library (docs/offline.md): the stored text of list
 * items and of detail answers, exactly as the API sent them, the `meta` of those answers,
 * and the last sync. Nothing here rebuilds a record: an answer the library does not hold
 * is "not in the library", never made up from other answers.
 *
 * One implementation reads the SQL library (`sql-reader.ts`, SQLite or PostgreSQL); the
 * offline client (`offline-client.ts`) only sees this interface.
 */
import type { DetailKind, DetailResource, LibraryResource } from "../api/enums.js";
import type { Meta } from "../http/client-types.js";

export type { LibraryResource } from "../api/enums.js";

/** A study's identifier columns, one per id form (`pmid-…`, `doi-…`, `nct-…`). */
export type StudyIdField = "pmid" | "doi" | "nct_id";

/** The last finished sync: what the notice and a manifest name. */
export interface SyncInfo {
  id: string;
  /** When it finished, ISO 8601 UTC. */
  finishedAt: string;
  baseUrl: string | undefined;
  apiVersion: string | undefined;
}

/** The last complete walk of a resource's listing: the sync it belongs to and when it ended. */
export interface WalkInfo {
  syncId: number;
  /** When the walk ended, ISO 8601 UTC. */
  finishedAt: string;
  /** Items the walk read. */
  items: number;
}

/** One stored list item: its place in the API's default order and its text as sent. */
export interface StoredItem {
  ord: number;
  text: string;
}

/** A detail answer: the `data` text as sent, and the `meta` it came with. */
export interface StoredDetail {
  text: string;
  meta: Meta;
}

export interface LibraryReader {
  /** Where the library is, for messages (a path, or a URL without its password). */
  readonly where: string;
  lastSync(): Promise<SyncInfo | undefined>;
  /** The last complete walk of the resource's listing; undefined when none ever ended. */
  walk(resource: LibraryResource): Promise<WalkInfo | undefined>;
  /** The `meta` of the resource's list pages as sent (without request ids); undefined when never synced. */
  listMeta(resource: LibraryResource): Promise<Meta | undefined>;
  /**
   * Items after position `after` in the API's default order, at most `limit` of them;
   * with `citedBy`, only the studies that peptide (by id) cites.
   */
  items(resource: LibraryResource, range: { after: number; limit: number; citedBy?: string }): Promise<StoredItem[]>;
  /** The item with this id: exactly, else the one id equal to it ignoring case. */
  item(resource: LibraryResource, id: string): Promise<StoredItem | undefined>;
  /**
   * The study whose identifier (`pmid`, `doi` or `nct_id` as listed) is `value`: exactly,
   * else the one equal to it ignoring case. A study answers to each of its id forms.
   */
  study(field: StudyIdField, value: string): Promise<StoredItem | undefined>;
  /** The detail answer kept as `kind` for the item `id` of `resource` (api/enums.ts DETAIL_KINDS). */
  detail(resource: DetailResource, kind: DetailKind, id: string): Promise<StoredDetail | undefined>;
  close(): Promise<void>;
}
