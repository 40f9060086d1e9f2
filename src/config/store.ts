/**
 * The config file: the only module that touches it and the config folder. The file
 * holds named profiles, `{ "profiles": { "default": { "base_url": …, "api_key": … } } }`,
 * kept at mode 0600 in a folder at 0700 because it may hold a key. A file that cannot be
 * read as JSON is reported with its path and never overwritten.
 */
import { chmodSync, closeSync, fstatSync, readFileSync, readSync, type Stats, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeDirs } from "../core/dirs.js";
import { ConfigError, UsageError } from "../core/errors.js";
import { currentUid, octalMode, unsafeOwnership } from "../core/owner.js";
import { openPlain } from "../core/trusted-file.js";
import { jsonErrorReason } from "../core/json-reason.js";
import { withFileLock } from "./lock.js";
import { shellWord } from "./profile.js";
import type { ConfigKey, ProfileValues } from "./types.js";
import { checkStoredProfile } from "./values.js";

export const CONFIG_FILE_NAME = "config.json";

type Env = Record<string, string | undefined>;

/** The home folder from the run's environment (as os.homedir() reads it from the process's). */
function home(env: Env): string {
  return env.HOME && path.isAbsolute(env.HOME) ? env.HOME : os.homedir();
}

/** `$PEP_CONFIG_DIR`, else `$XDG_CONFIG_HOME/pep`, else `~/.config/pep`. */
export function configDir(env: Env): string {
  if (env.PEP_CONFIG_DIR) return path.resolve(env.PEP_CONFIG_DIR);
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home(env), ".config");
  return path.join(base, "pep");
}

/** `$PEP_CACHE_DIR`, else `$XDG_CACHE_HOME/pep`, else `~/.cache/pep`. */
export function cacheDir(env: Env): string {
  if (env.PEP_CACHE_DIR) return path.resolve(env.PEP_CACHE_DIR);
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home(env), ".cache");
  return path.join(base, "pep");
}

/** What pep has seen of a key's scopes: granted by a success, refused by a 403. Not a secret. */
export interface ScopesSeen {
  granted: string[];
  refused: string[];
}

/** The profile field that holds ScopesSeen per key fingerprint (ignored as a config value). */
export const SCOPES_FIELD = "scopes_seen";

/** Keys whose scopes a profile remembers, newest last; older ones are dropped. */
const SCOPE_KEYS_KEPT = 8;

function scopeList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").sort() : [];
}

function readScopes(profile: Record<string, unknown> | undefined, fingerprint: string): ScopesSeen {
  const all = profile?.[SCOPES_FIELD];
  const entry =
    all && typeof all === "object" && !Array.isArray(all) && Object.hasOwn(all, fingerprint)
      ? (all as Record<string, unknown>)[fingerprint]
      : undefined;
  if (!entry || typeof entry !== "object") return { granted: [], refused: [] };
  const e = entry as Record<string, unknown>;
  return { granted: scopeList(e.granted), refused: scopeList(e.refused) };
}

interface FileShape {
  profiles?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface ConfigStore {
  /** Full path of the config file. */
  readonly file: string;
  /** Values of a profile (checked); `{}` when the profile or file does not exist. */
  profile(name: string): ProfileValues;
  /** Names of the profiles in the file. */
  profiles(): string[];
  set(profile: string, key: ConfigKey, value: string | number | boolean): Promise<void>;
  /** Stores several values in one write (`auth login --base-url`: the key and the URL together or neither). */
  setValues(profile: string, values: Partial<Record<ConfigKey, string | number | boolean>>): Promise<void>;
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
 * Adds what a run saw of a key's scopes (by its fingerprint) to a stored profile; false
 * when that changes nothing. The newest fingerprints are kept, SCOPE_KEYS_KEPT of them.
 */
function mergeScopes(
  current: Record<string, unknown>,
  fingerprint: string,
  outcomes: ReadonlyMap<string, "granted" | "refused">,
): boolean {
  const before = readScopes(current, fingerprint);
  const granted = new Set(before.granted);
  const refused = new Set(before.refused);
  for (const [scope, outcome] of outcomes) {
    (outcome === "granted" ? granted : refused).add(scope);
    (outcome === "granted" ? refused : granted).delete(scope);
  }
  const after = { granted: [...granted].sort(), refused: [...refused].sort() };
  if (JSON.stringify(after) === JSON.stringify(before)) return false;
  const old = current[SCOPES_FIELD];
  const all: Record<string, unknown> =
    old && typeof old === "object" && !Array.isArray(old) ? { ...(old as Record<string, unknown>) } : {};
  delete all[fingerprint]; // re-added last: the newest key is kept longest
  Object.defineProperty(all, fingerprint, { value: after, enumerable: true, writable: true, configurable: true });
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - SCOPE_KEYS_KEPT))) delete all[k];
  current[SCOPES_FIELD] = all;
  return true;
}

/**
 * Reads are readFileShape (plain JSON, checked); writes are atomic (atomically: a temp
 * file at mode 0600, flushed, then renamed over the file), so a reader never sees half
 * a file and a failure leaves the old one. The read-change-write runs under a lock
 * file, so runs changing the file at once each keep the other's change. The returned
 * function applies `change` and says whether it changed anything.
 */
function fileUpdater(dir: string, file: string): (change: (shape: FileShape) => boolean) => Promise<boolean> {
  const write = async (change: (shape: FileShape) => boolean): Promise<boolean> => {
    const shape = readFileShape(file); // read again under the lock; refuses a corrupt file
    if (!change(shape)) return false;
    const { writeFile } = await import("atomically");
    try {
      await writeFile(file, `${JSON.stringify(shape, null, 2)}\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
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
        return true;
      });
    },
  };
}

/**
 * The most a key file (or a key on stdin) may hold: a key is tens of characters, so a
 * few KiB leave room for a trailing newline or comment, while `/dev/zero`, `/dev/urandom`
 * or a wrong file is refused at once instead of read into memory without end.
 */
export const KEY_FILE_MAX_BYTES = 4096;

/** Reads at most `max + 1` bytes of `file` (enough to tell it is too big). */
function readHead(file: string, max: number, label: string): Buffer {
  const fd = openPlain(
    file,
    (kind) =>
      new UsageError(`${label}: ${file} is ${kind}, not a file that holds a key`, {
        hints: ["give a plain file, or - to read the key from standard input (--api-key-file - < file)"],
      }),
  );
  try {
    const buf = Buffer.alloc(max + 1);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** Reads stdin until its end or past `max` bytes, whichever comes first. */
async function readStdinHead(stdin: NodeJS.ReadableStream, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const c of stdin) {
    const b = typeof c === "string" ? Buffer.from(c) : (c as Buffer);
    chunks.push(b);
    got += b.length;
    if (got > max) break; // leaving the loop stops reading stdin
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a key from `--api-key-file <path|->`: the file's first non-empty line, or stdin
 * when `-`. `label` names the flag in messages (`--with-key` for `pep auth login`).
 */
export async function readKeyFile(
  spec: string,
  stdin: NodeJS.ReadableStream,
  cwd: string,
  label = "--api-key-file",
): Promise<string> {
  let bytes: Buffer;
  const source = spec === "-" ? "standard input" : spec;
  if (spec === "-") {
    bytes = await readStdinHead(stdin, KEY_FILE_MAX_BYTES);
  } else {
    const file = path.resolve(cwd, spec);
    try {
      bytes = readHead(file, KEY_FILE_MAX_BYTES, label);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(`${label}: cannot read ${file}${code ? ` (${code})` : ""}`);
    }
  }
  if (bytes.length > KEY_FILE_MAX_BYTES) {
    throw new UsageError(
      `${label}: ${source} holds more than ${KEY_FILE_MAX_BYTES / 1024} KiB; a key file holds one key (a line of tens of characters)`,
    );
  }
  const text = bytes.toString("utf8");
  const key = (text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "").trim();
  if (key === "") throw new UsageError(`${label}: ${source} holds no key`);
  if (/\s/.test(key)) throw new UsageError(`${label}: the key must be one word without spaces`);
  // A key is text: control characters (a binary file, a wrong path) are not sent as a header.
  if (/[\x00-\x1f\x7f]/.test(key))
    throw new UsageError(`${label}: ${source} does not hold a key (it has control characters)`);
  return key;
}
