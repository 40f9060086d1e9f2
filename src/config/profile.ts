/**
 * Profiles: which one a run uses (`--profile`, else `PEP_PROFILE`, else `default`), the
 * check that a named profile exists, and the one rule by which every command pep tells
 * the user to run names the profile in use.
 */
import { UsageError } from "../core/errors.js";
import { closest } from "../core/suggest.js";

/** The profile every run uses when none is named; it exists without being stored. */
export const DEFAULT_PROFILE = "default";

/** The profile of a run: `--profile`, else `PEP_PROFILE`, else `default` (an empty name is `default`). */
export function profileName(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  const name = flag ?? env.PEP_PROFILE ?? DEFAULT_PROFILE;
  return name === "" ? DEFAULT_PROFILE : name;
}

/** Where the profile's name came from, for messages: `--profile`, `PEP_PROFILE`, or none (the default). */
export function profileOrigin(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): "--profile" | "PEP_PROFILE" | undefined {
  if (flag !== undefined && flag !== "") return "--profile";
  if (flag === undefined && env.PEP_PROFILE !== undefined && env.PEP_PROFILE !== "") return "PEP_PROFILE";
  return undefined;
}

/** The profiles there are: `default` (always) and those in the config file, in file order. */
export function knownProfiles(stored: readonly string[]): string[] {
  return [DEFAULT_PROFILE, ...stored.filter((p) => p !== DEFAULT_PROFILE)];
}

/** A profile name as typed in a shell: bare when it is plain, else in single quotes. */
export function shellWord(name: string): string {
  return /^[A-Za-z0-9._@%+=:,/-]+$/.test(name) ? name : `'${name.replace(/'/g, `'\\''`)}'`;
}

/**
 * `text` with every `pep auth …` and `pep config …` command in it naming the profile in
 * use: `pep --profile work auth login`. The default profile is named nowhere, and
 * `pep config path` and `pep config profiles` are about every profile, so they stay as
 * written. The one rule for hints and notices, applied where they are printed.
 */
export function withProfile(text: string, profile: string): string {
  if (profile === DEFAULT_PROFILE) return text;
  return text.replace(/\bpep (auth|config)(?= )(?! (path|profiles)\b)/g, `pep --profile ${shellWord(profile)} $1`);
}

/**
 * Refuses a profile that is neither `default` nor in the config file (exit 2, before any
 * request), naming the ones there are and the nearest when the name looks like a slip.
 */
export function checkProfileKnown(
  name: string,
  stored: readonly string[],
  origin: "--profile" | "PEP_PROFILE" | undefined,
  howToMake = true,
): void {
  if (name === DEFAULT_PROFILE || stored.includes(name)) return;
  const known = knownProfiles(stored);
  const near = closest(name, known);
  const from = origin === "PEP_PROFILE" ? " from PEP_PROFILE" : "";
  const hints: string[] = [];
  if (near) hints.push(`Did you mean \`${near}\`? (\`--profile ${shellWord(near)}\`)`);
  if (howToMake)
    hints.push(
      `a profile is made by storing something in it: \`pep --profile ${shellWord(name)} auth login\` or \`pep --profile ${shellWord(name)} config set <key> <value>\`; \`pep config profiles\` lists them`,
    );
  throw new UsageError(`unknown profile "${name}"${from} (profiles: ${known.join(", ")})`, { hints });
}
