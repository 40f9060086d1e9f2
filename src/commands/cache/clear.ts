/** `pep cache clear`: removes every entry of the ETag cache. */
import { cacheDir } from "../../config/store.js";
import { clearCache } from "../../http/cache.js";
import type { CommandModule } from "../../core/command.js";
import { megabytes } from "./units.js";

export const run: CommandModule["run"] = async (_input, ctx) => {
  const done = clearCache(cacheDir(ctx.io.env));
  ctx.notice(
    `removed ${done.entries} ${done.entries === 1 ? "entry" : "entries"} (${megabytes(done.bytes)}) from ${done.dir}`,
  );
  return { kind: "none" };
};
