/** `pep config list`: the profile's stored values; the API key only as its fingerprint. */
import type { Run } from "../../core/command.js";
import { shownProfile } from "./keys.js";

export const run: Run = async (_input, ctx) => {
  const profile = ctx.profile;
  const store = await ctx.store();
  const values = shownProfile(store.profile(profile));
  if (Object.keys(values).length === 0) {
    const others = store.profiles().filter((p) => p !== profile);
    ctx.notice(
      `profile ${profile} has no values set in ${store.file}${others.length ? ` (other profiles: ${others.join(", ")})` : ""}; set one with \`pep config set <key> <value>\``,
    );
  }
  return { kind: "item", resource: "config", data: values };
};
