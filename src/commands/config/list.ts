/**
 * `pep config list`: the profile's stored values (the API key only as its fingerprint),
 * then under `defaults` the values in effect for the keys it leaves unset, marked as
 * such, so that the list says what a run uses.
 */
import type { Run } from "../../core/command.js";
import { CONFIG_KEYS } from "../../config/config-types.js";
import { DEFAULT_VALUES, shownProfile } from "./keys.js";

export const run: Run = async (_input, ctx) => {
  const profile = ctx.profile;
  const store = await ctx.store();
  const values = shownProfile(store.profile(profile));
  if (Object.keys(values).length === 0) {
    const others = store.profiles().filter((p) => p !== profile);
    ctx.notice(
      `profile ${profile} has no values set in ${store.file}${others.length ? ` (other profiles: ${others.join(", ")})` : ""}; the defaults apply; set one with \`pep config set <key> <value>\``,
    );
  }
  const defaults: Record<string, string | number | boolean> = {};
  for (const key of CONFIG_KEYS) {
    if (key in values) continue;
    const def = DEFAULT_VALUES[key];
    if (def !== undefined) defaults[key] = def;
  }
  return { kind: "item", resource: "config", data: { ...values, defaults } };
};
