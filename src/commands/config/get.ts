/**
 * `pep config get <key>`: one stored value on stdout, for scripts. `api_key` prints its
 * fingerprint, never the key. An unset key prints nothing and says so (with the
 * default, when there is one) on stderr.
 */
import { DEFAULTS } from "../../config/resolve.js";
import type { ConfigKey } from "../../config/config-types.js";
import type { Run } from "../../core/command.js";
import { checkKey, shown } from "./keys.js";

const DEFAULT_OF: Partial<Record<ConfigKey, string>> = {
  auth_header: DEFAULTS.authHeader,
  timeout: String(DEFAULTS.timeoutSeconds),
  retries: String(DEFAULTS.retries),
  cache: String(DEFAULTS.cache),
  output: "table on a terminal, json otherwise",
  pager: "PAGER, else less -FRX",
};

export const run: Run = async (input, ctx) => {
  const key = checkKey(input.args[0]);
  const profile = ctx.profile;
  const store = await ctx.store();
  const value = shown(key, store.profile(profile)[key]);
  if (value === undefined) {
    const def = DEFAULT_OF[key];
    ctx.notice(`${key} is not set in profile ${profile}${def ? ` (default: ${def})` : ""}`);
    return { kind: "none" };
  }
  return { kind: "text", text: `${String(value)}\n` };
};
