/**
 * The environment's on/off switches (`PEP_SANDBOX`, `PEP_NO_CACHE`), read one way: the
 * words a config value takes (`1 true yes on`, `0 false no off`, any case), empty or
 * unset as off, and any other word refused (exit 2) rather than guessed at:
 * `PEP_SANDBOX=no` must not start a sandbox.
 */
import { UsageError } from "./errors.js";

const ON = ["1", "true", "yes", "on"];
const OFF = ["0", "false", "no", "off"];

/** Whether the switch `name` is on in `env`; throws for a word it does not know. */
export function envSwitch(env: Readonly<Record<string, string | undefined>>, name: string): boolean {
  const raw = env[name];
  if (raw === undefined) return false;
  const word = raw.trim().toLowerCase();
  if (word === "" || OFF.includes(word)) return false;
  if (ON.includes(word)) return true;
  throw new UsageError(`${name} must be one of ${[...ON, ...OFF].join(", ")} (got "${raw}")`, {
    hints: [`unset it, or set ${name}=1 to turn it on and ${name}=0 to turn it off`],
  });
}
