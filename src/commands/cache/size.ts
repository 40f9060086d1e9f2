/** `pep cache size`: entries, bytes and the limit of the ETag cache. */
import { cacheDir } from "../../config/store.js";
import { cacheUsage } from "../../http/cache.js";
import type { CommandModule } from "../types.js";
import { megabytes } from "./units.js";

export const run: CommandModule["run"] = async (_input, ctx) => {
  const cfg = await ctx.config();
  const usage = cacheUsage(cacheDir(ctx.io.env));
  const data = { path: usage.dir, entries: usage.entries, bytes: usage.bytes, max_bytes: cfg.cacheMaxBytes };
  if (ctx.format !== "table") return { kind: "item", resource: "generic", data };
  return {
    kind: "text",
    text: `${megabytes(usage.bytes)} in ${usage.entries} ${usage.entries === 1 ? "entry" : "entries"} (at most ${megabytes(cfg.cacheMaxBytes)}) in ${usage.dir}\n`,
  };
};
