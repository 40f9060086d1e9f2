/**
 * `pep config set <key> <value>`: checks the value as every other source of it is
 * checked (exit 2 with what the key accepts), then writes it. The API key is not taken
 * from the command line, where it would stay in shell history and show in `ps`: `-`
 * reads it from stdin, and `pep auth login` checks it first.
 */
import { readKeyFile } from "../../config/key-file.js";
import { parseConfigValue } from "../../config/config-values.js";
import { UsageError } from "../../core/errors.js";
import type { Run } from "../../core/command.js";
import { checkKey, shown } from "./keys.js";

export const run: Run = async (input, ctx) => {
  const key = checkKey(input.args[0]);
  const raw = input.args[1];
  if (raw === undefined) throw new UsageError(`missing <value> for ${key}`);
  let value: string | number | boolean;
  if (key === "api_key") {
    if (raw !== "-") {
      throw new UsageError(
        "the API key is not taken on the command line, where it stays in shell history and shows in `ps`",
        {
          hints: [
            "Run `pep auth login` (checks the key, then stores it), or `pep config set api_key - < key.txt` to store it unchecked.",
          ],
        },
      );
    }
    value = await readKeyFile("-", ctx.io.stdin, ctx.io.cwd, "config set api_key -");
  } else {
    value = parseConfigValue(key, raw, key) as string | number | boolean;
  }
  const profile = ctx.profile;
  const store = await ctx.store();
  if (key === "api_key") {
    // The key belongs to the base URL this run knows (the flag, PEP_BASE_URL or the
    // profile's); with none, to the base_url the profile is given later.
    const { originOf } = await import("../../config/key-origin.js");
    const origin = originOf((await ctx.config()).baseUrl);
    await store.setValues(
      profile,
      origin === undefined ? { api_key: value } : { api_key: value, api_key_origin: origin },
    );
    ctx.notice(
      `Set api_key = ${String(shown(key, value))} in profile ${profile} (${store.file})${origin === undefined ? "" : `, for ${origin} only`}`,
    );
    return { kind: "none" };
  }
  await store.set(profile, key, value);
  ctx.notice(`Set ${key} = ${String(shown(key, value))} in profile ${profile} (${store.file})`);
  return { kind: "none" };
};
