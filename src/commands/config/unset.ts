/** `pep config unset <key>`: removes a stored value, and says whether there was one. */
import type { Run } from "../../core/command.js";
import { checkKey } from "./keys.js";

export const run: Run = async (input, ctx) => {
  const key = checkKey(input.args[0]);
  const profile = ctx.profile;
  const store = await ctx.store();
  const removed = await store.unset(profile, key);
  ctx.notice(
    removed ? `Removed ${key} from profile ${profile}` : `${key} was not set in profile ${profile}; nothing to remove`,
  );
  return { kind: "none" };
};
