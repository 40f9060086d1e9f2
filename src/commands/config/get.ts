/**
 * `pep config get <key>`: the value in effect on stdout, for scripts. `api_key` prints
 * its fingerprint, never the key. An unset key with a default prints the default and
 * says on stderr that it is one; an unset key without a fixed default prints nothing and
 * says what applies.
 */
import type { Run } from "../../core/command.js";
import { checkKey, DEFAULT_RULES, DEFAULT_VALUES, shown } from "./keys.js";

export const run: Run = async (input, ctx) => {
  const key = checkKey(input.args[0]);
  const profile = ctx.profile;
  const store = await ctx.store();
  const value = shown(key, store.profile(profile)[key]);
  if (value !== undefined) return { kind: "text", text: `${String(value)}\n` };
  const def = DEFAULT_VALUES[key];
  if (def !== undefined) {
    ctx.notice(`${key} is not set in profile ${profile}: ${String(def)} is the default`);
    return { kind: "text", text: `${String(def)}\n` };
  }
  const rule = DEFAULT_RULES[key];
  ctx.notice(`${key} is not set in profile ${profile}${rule ? ` (default: ${rule})` : ""}`);
  return { kind: "none" };
};
