/** `pep config path`: where the config file is (it may not exist yet). */
import type { Run } from "../../core/command.js";

export const run: Run = async (_input, ctx) => {
  const store = await ctx.store();
  return { kind: "text", text: `${store.file}\n` };
};
