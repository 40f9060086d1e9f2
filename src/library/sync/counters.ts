/** What a sync counts as it goes: the summary, and the row of `syncs`. */
export interface SyncCounters {
  requests: number;
  /** Requests answered 304 Not Modified. */
  notModified: number;
  items: number;
  added: number;
  changed: number;
  removed: number;
  /** Items (or an item's own answers) the library could not keep, each told in one line. */
  skippedItems: number;
  /** Some answer carried the sandbox's mark: the data is synthetic. */
  synthetic: boolean;
}

export const newCounters = (): SyncCounters => ({
  requests: 0,
  notModified: 0,
  items: 0,
  added: 0,
  changed: 0,
  removed: 0,
  skippedItems: 0,
  synthetic: false,
});
