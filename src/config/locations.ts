/**
 * Where pep keeps its files, from the run's environment (never the process's): the config
 * folder (`config.json`, its lock), the cache folder (the ETag cache) and the data folder
 * (the local library's default files).
 */
import os from "node:os";
import path from "node:path";

export type Env = Record<string, string | undefined>;

/** The config file's name, in configDir(). */
export const CONFIG_FILE_NAME = "config.json";

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

/** `$PEP_DATA_DIR`, else `$XDG_DATA_HOME/pep`, else `~/.local/share/pep`. */
export function dataDir(env: Env): string {
  if (env.PEP_DATA_DIR) return path.resolve(env.PEP_DATA_DIR);
  const base =
    env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME)
      ? env.XDG_DATA_HOME
      : path.join(home(env), ".local", "share");
  return path.join(base, "pep");
}

/**
 * The library of `--sandbox` runs (unless `--db` names one): a file of its own,
 * `library/sandbox/<profile>.sqlite`, so the sandbox's synthetic data never enters the
 * library a profile syncs from a real API (a profile's own is `library/<profile>.sqlite`).
 */
export function sandboxLibraryFile(env: Env, profile: string): string {
  return path.join(dataDir(env), "library", "sandbox", `${profile}.sqlite`);
}
