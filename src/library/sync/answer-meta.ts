/**
 * The `meta` of the answers a sync met (the affiliate disclosure, the sandbox mark), kept
 * so that `--offline` prints what online prints: the last page's of each list under
 * `list:<resource>`, each detail kind's under `detail:<resource>:<kind>`, as JSON text
 * without the request id. Written only when it differs from what is kept.
 */
import { stringifyExact } from "../../core/exact-number.js";
import type { Meta } from "../../http/client-types.js";
import type { Db } from "../db.js";

export function metaKeeper(db: Db): (key: string, meta: Meta | undefined) => Promise<void> {
  const kept = new Map<string, string>();
  return async (key, meta) => {
    if (!meta) return;
    const { request_id: _id, ...rest } = meta as Record<string, unknown>;
    const text = stringifyExact(rest) ?? "{}";
    if (kept.get(key) === text) return;
    kept.set(key, text);
    await db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [
      key,
      text,
    ]);
  };
}
