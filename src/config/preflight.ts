/**
 * Checks of the profile a run names, made before a command reads its config or sends
 * anything: the profile must exist (unless the command makes it), and `auth login` needs
 * a base URL before it reads a key it could not check.
 */
import { UsageError } from "../core/errors.js";
import type { IO } from "../core/io.js";
import { checkProfileKnown, DEFAULT_PROFILE, profileOrigin } from "./profile.js";
import { resolveBaseUrl } from "./resolve.js";
import type { ConfigStore } from "./store.js";
import type { SandboxSource } from "./config-types.js";

/** Refuses an unknown profile (exit 2); `default` always exists, so a fresh machine needs no file. */
export function checkProfile(
  profile: string,
  flag: string | undefined,
  env: IO["env"],
  store: () => Promise<ConfigStore>,
): Promise<void> | undefined {
  if (profile === DEFAULT_PROFILE) return undefined;
  return store().then((s) => checkProfileKnown(profile, s.profiles(), profileOrigin(flag, env)));
}

/** Refuses a run with no base URL at all (exit 2), saying the ways to give one. */
export async function checkBaseUrlKnown(
  profile: string,
  flag: string | undefined,
  env: IO["env"],
  store: () => Promise<ConfigStore>,
  sandbox: SandboxSource | undefined,
): Promise<void> {
  if (resolveBaseUrl(flag, env, (await store()).profile(profile), sandbox)) return;
  throw new UsageError(`profile ${profile} has no API base URL, so there is nothing to check a key with`, {
    hints: [
      "give it with the key: `pep auth login --base-url https://<host>/v1` stores both together",
      "or store it first with `pep config set base_url https://<host>/v1`, or set PEP_BASE_URL",
    ],
  });
}
