/** `pep cache path`: where the ETag cache is (it may not exist yet). */
import { cacheDir } from "../../config/locations.js";
import type { CommandModule } from "../../core/command.js";

export const run: CommandModule["run"] = async (_input, ctx) => ({ kind: "text", text: `${cacheDir(ctx.io.env)}\n` });
