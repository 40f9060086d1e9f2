/** `pep cache size`: entries, bytes and the limit of the ETag cache. */
import { cacheDir } from "../../config/locations.js";
import { cacheUsage } from "../../http/cache.js";
import type { CommandModule } from "../../core/command.js";

export const run: CommandModule["run"] = async (_input, ctx) => {
  const cfg = await ctx.config();
  const usage = cacheUsage(cacheDir(ctx.io.env));
  const data = { path: usage.dir, entries: usage.entries, bytes: usage.bytes, max_bytes: cfg.cacheMaxBytes };
  return { kind: "item", resource: "generic", data };
};
