/**
 * `pep config profiles`: the profiles there are (`default` always, then those in the
 * config file), which one is in use, whether each holds a key (never the key) and its
 * base URL. `--delete <name>` removes one, under the config lock in one atomic write.
 */
import { checkProfileKnown, DEFAULT_PROFILE, knownProfiles } from "../../config/profile.js";
import { UsageError } from "../../core/errors.js";
import type { Run } from "../../core/command.js";
import type { PROFILES_OPTIONS } from "./config-options.js";

export const run: Run<typeof PROFILES_OPTIONS> = async (input, ctx) => {
  const store = await ctx.store();
  const target = input.opts.delete;
  if (target !== undefined) {
    if (target.trim() === "") throw new UsageError("--delete needs a profile name");
    const stored = store.profiles();
    checkProfileKnown(target, stored, undefined, false);
    const removed = await store.deleteProfile(target);
    ctx.notice(
      removed
        ? `Deleted profile ${target} and all it held from ${store.file}`
        : `Profile ${target} has nothing stored; nothing to delete`,
    );
    return { kind: "none" };
  }
  const rows = knownProfiles(store.profiles()).map((name) => {
    const values = store.profile(name);
    return {
      name,
      in_use: name === ctx.profile,
      has_key: values.api_key !== undefined,
      base_url: values.base_url ?? null,
    };
  });
  if (rows.length === 1 && rows[0]!.name === DEFAULT_PROFILE && !rows[0]!.has_key && rows[0]!.base_url === null)
    ctx.notice("only the default profile, with nothing stored; make another with `pep --profile <name> config set …`");
  async function* items(): AsyncGenerator<unknown> {
    yield* rows;
  }
  return { kind: "list", resource: "profile", items: items(), meta: () => undefined, nextCursor: () => undefined };
};
