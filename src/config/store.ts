/**
 * The config file: the only module that reads or writes it and the config folder
 * (where they are: locations.ts; the scopes a profile records: scopes-seen.ts). The file
 * holds named profiles, `{ "profiles": { "default": { "base_url": …, "api_key": … } } }`,
 * kept at mode 0600 in a folder at 0700 because it may hold a key. A file that cannot be
 * read as JSON is reported with its path and never overwritten.
 */
import { chmodSync, closeSync, fstatSync, readFileSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import { makeDirs } from "../core/dirs.js";
import { ConfigError } from "../core/errors.js";
import { currentUid, octalMode, unsafeOwnership } from "../core/owner.js";
import { jsonErrorReason } from "../core/json-reason.js";
import { openPlain, writeTrusted } from "../core/trusted-file.js";
import { CONFIG_FILE_NAME, configDir, type Env } from "./locations.js";
import { KEY_ORIGIN_FIELD } from "./key-origin.js";
import { withFileLock } from "./lock.js";
import { shellWord } from "./profile.js";
import type { ConfigKey, ProfileValues } from "./config-types.js";
import { checkStoredProfile } from "./config-values.js";
import { mergeScopes, readScopes, type ScopesSeen } from "./scopes-seen.js";

interface FileShape {
  profiles?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** What a write stores: config keys, and the origin a key is stored for. */
export type StoredValues = Partial<Record<ConfigKey | typeof KEY_ORIGIN_FIELD, string | number | boolean>>;

export interface ConfigStore {
  /** Full path of the config file. */
  readonly file: string;
  /** Values of a profile (checked); `{}` when the profile or file does not exist. */
  profile(name: string): ProfileValues;
  /** The origin the profile's stored key was stored for (config/key-origin.ts), if recorded. */
  keyOrigin(profile: string): string | undefined;
  /** Names of the profiles in the file. */
  profiles(): string[];
  set(profile: string, key: ConfigKey, value: string | number | boolean): Promise<void>;
  /** Stores several values in one write (`auth login --base-url`: the key and the URL together or neither). */
  setValues(profile: string, values: StoredValues): Promise<void>;
  /** Removes a profile and all it holds; returns whether it was there. */
  deleteProfile(profile: string): Promise<boolean>;
  /** The scopes a key (by its fingerprint) was seen to have and to lack, as recorded in the profile. */
  scopesSeen(profile: string, fingerprint: string): ScopesSeen;
  /** Records what a run learnt of a key's scopes; writes only when it changes what is recorded. */
  noteScopes(profile: string, fingerprint: string, outcomes: ReadonlyMap<string, "granted" | "refused">): Promise<void>;
  /** Removes a key; returns whether it was there. */
  unset(profile: string, key: ConfigKey): Promise<boolean>;
}

/**
 * Refuses a config file, or its folder, that someone else could change
 * (core/owner.ts), as ssh refuses `~/.ssh/config`: whoever can write it can point
 * `base_url` at their own server and collect the key.
 */
function refuseUnsafe(what: "file" | "folder", where: string, st: Stats, uid: number): void {
  const unsafe = unsafeOwnership(what, st, uid);
  if (unsafe === undefined) return;
  const risk = "whoever can change it can point base_url at their own server and collect the key";
  if ("owner" in unsafe) {
    throw new ConfigError(
      `config ${what} ${where} belongs to uid ${unsafe.owner}, not to you (uid ${uid}); ${risk}, so it was not used`,
      {
        hints: [
          what === "file"
            ? `check what it holds, then move it away (\`pep auth login\` makes a new one) or make it yours: chown ${uid} ${shellWord(where)}`
            : `use a folder of your own (PEP_CONFIG_DIR), or make it yours: chown ${uid} ${shellWord(where)}`,
        ],
      },
    );
  }
  const fix = what === "file" ? `chmod 600 ${shellWord(where)}` : `chmod go-w ${shellWord(where)}`;
  throw new ConfigError(
    `config ${what} ${where} can be written by others (mode ${octalMode(unsafe.mode)}); ${risk}, so it was not used`,
    { hints: [`check what it holds, then run: ${fix}`] },
  );
}

/** The folder's check, when pep is about to read or write the file in it. */
function checkFolder(dir: string): void {
  const uid = currentUid();
  if (uid === undefined) return;
  const st = statSync(dir, { throwIfNoEntry: false });
  if (st?.isDirectory()) refuseUnsafe("folder", dir, st, uid);
}

/** Reads the file as it is after its owner and mode were checked (on the open file). */
function readSafely(file: string): string {
  const fd = openPlain(file, (kind) => new ConfigError(`config file ${file} is ${kind}, not a file pep can read`));
  try {
    const uid = currentUid();
    if (uid !== undefined) {
      checkFolder(path.dirname(file));
      refuseUnsafe("file", file, fstatSync(fd), uid);
    }
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * The one reader of the file: read only when nobody else could have changed it
 * (readSafely), then checked as JSON, so that a corrupt file is reported (and left as it
 * is) rather than reset. A missing or empty file is an empty one.
 */
function readFileShape(file: string): FileShape {
  let text: string;
  try {
    text = readSafely(file);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError(`cannot read config file ${file}: ${(e as Error).message}`);
  }
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config file ${file} is not valid JSON (${jsonErrorReason(e)}); it was left untouched`, {
      hints: ["Fix it by hand, or move it away and run the command again."],
    });
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${file} does not hold a JSON object; it was left untouched`);
  }
  const shape = parsed as FileShape;
  if (
    shape.profiles !== undefined &&
    (typeof shape.profiles !== "object" || shape.profiles === null || Array.isArray(shape.profiles))
  ) {
    throw new ConfigError(`config file ${file}: "profiles" must be an object; it was left untouched`);
  }
  return shape;
}

/**
 * Creates the config folder at 0700 when it is missing. A folder that already exists
 * keeps its mode: it may be a shared or project folder (`PEP_CONFIG_DIR=.`, a 1777 tmp)
 * that pep did not make; the config file itself is always 0600.
 */
function ensurePrivateDir(dir: string): void {
  try {
    if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
    makeDirs(dir, 0o700);
    // The umask may have narrowed the mode, never widened it; make it exact.
    if ((statSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  } catch (e) {
    throw new ConfigError(`cannot create config folder ${dir}: ${(e as Error).message}`);
  }
}

/**
 * A profile's values as stored, looked up as an own property: a name such as
 * `constructor` or `__proto__` is a profile like any other, not something inherited.
 */
function storedProfile(shape: FileShape, name: string): Record<string, unknown> | undefined {
  const profiles = shape.profiles;
  return profiles && Object.hasOwn(profiles, name) ? profiles[name] : undefined;
}

/** A profile about to be changed must be an object, or the file is left untouched. */
function changeableProfile(shape: FileShape, name: string, file: string): Record<string, unknown> | undefined {
  const current: unknown = storedProfile(shape, name);
  if (current !== undefined && (current === null || typeof current !== "object" || Array.isArray(current))) {
    throw new ConfigError(`config file ${file}: profile "${name}" is not an object; it was left untouched`, {
      hints: ["Fix or remove the file; `pep config path` prints where it is."],
    });
  }
  return current as Record<string, unknown> | undefined;
}

/**
 * Reads are readFileShape (plain JSON, checked); writes are atomic (writeTrusted: a temp
 * file at mode 0600, flushed, then renamed onto the file), so a reader never sees half
 * a file and a failure leaves the old one. The read-change-write runs under a lock
 * file, so runs changing the file at once each keep the other's change. The returned
 * function applies `change` and says whether it changed anything.
 */
function fileUpdater(dir: string, file: string): (change: (shape: FileShape) => boolean) => Promise<boolean> {
  const write = async (change: (shape: FileShape) => boolean): Promise<boolean> => {
    const shape = readFileShape(file); // read again under the lock; refuses a corrupt file
    if (!change(shape)) return false;
    try {
      writeTrusted(file, `${JSON.stringify(shape, null, 2)}\n`);
    } catch (e) {
      throw new ConfigError(`cannot write config file ${file}: ${(e as Error).message}`);
    }
    return true;
  };
  return async (change) => {
    // A change with nothing to do (or a corrupt file) touches nothing, not even the folder.
    if (!change(readFileShape(file))) return false;
    ensurePrivateDir(dir);
    checkFolder(dir); // a new file in a folder others can write would not stay pep's
    return withFileLock(file, () => write(change));
  };
}

export function openConfigStore(env: Env): ConfigStore {
  const dir = configDir(env);
  const file = path.join(dir, CONFIG_FILE_NAME);

  const update = fileUpdater(dir, file);

  const setValues: ConfigStore["setValues"] = async (profile, values) => {
    await update((shape) => {
      const current = changeableProfile(shape, profile, file);
      // defineProperty, not assignment: `profiles["__proto__"] = …` would set the prototype.
      shape.profiles ??= {};
      Object.defineProperty(shape.profiles, profile, {
        value: { ...current, ...values },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return true;
    });
  };

  return {
    file,
    profile(name) {
      const shape = readFileShape(file);
      return checkStoredProfile(storedProfile(shape, name), name, file);
    },
    keyOrigin(name) {
      const origin = storedProfile(readFileShape(file), name)?.[KEY_ORIGIN_FIELD];
      return typeof origin === "string" ? origin : undefined;
    },
    profiles() {
      return Object.keys(readFileShape(file).profiles ?? {});
    },
    async set(profile, key, value) {
      await setValues(profile, { [key]: value });
    },
    setValues,
    async deleteProfile(profile) {
      return update((shape) => {
        if (!shape.profiles || !Object.hasOwn(shape.profiles, profile)) return false;
        delete shape.profiles[profile];
        return true;
      });
    },
    scopesSeen(profile, fingerprint) {
      const stored = storedProfile(readFileShape(file), profile);
      return readScopes(stored && typeof stored === "object" ? stored : undefined, fingerprint);
    },
    async noteScopes(profile, fingerprint, outcomes) {
      await update((shape) => {
        const current = changeableProfile(shape, profile, file);
        // Only a profile that is stored keeps what was seen of its key: a run never makes one.
        return current ? mergeScopes(current, fingerprint, outcomes) : false;
      });
    },
    async unset(profile, key) {
      return update((shape) => {
        const current = changeableProfile(shape, profile, file);
        if (!current || !Object.hasOwn(current, key)) return false;
        delete current[key];
        // A key's origin goes with it.
        if (key === "api_key") delete current[KEY_ORIGIN_FIELD];
        return true;
      });
    },
  };
}
