/** `pep auth logout`: removes the profile's stored key, and says whether there was one. */
import type { Run } from "../../core/command.js";

export const run: Run = async (_input, ctx) => {
  const profile = ctx.profile;
  const store = await ctx.store();
  const removed = await store.unset(profile, "api_key");
  ctx.notice(
    removed
      ? `Removed the API key of profile ${profile} from ${store.file}`
      : `Profile ${profile} has no stored API key; nothing to remove`,
  );
  if (ctx.io.env.PEP_API_KEY?.trim()) {
    ctx.notice("note: PEP_API_KEY is still set in this environment, so commands still send a key; unset it too.");
  }
  return { kind: "none" };
};
