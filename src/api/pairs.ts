/**
 * `key=value` pairs from the command line: `--param` of `pep prices`/`pep products`
 * (query parameters the spec does not show) and `-F` of `pep api`. A pair that names a
 * parameter a flag already covers is refused, so each parameter has one way in and is
 * checked in one place; a key-looking name is refused, since a key in a URL leaks into
 * logs and history.
 */
import { UsageError } from "../core/errors.js";
import { isKeyParam, KEY_IN_URL_HINT } from "../core/key-in-url.js";

const NAME = /^[A-Za-z0-9_.[\]-]+$/;

export function keyInUrlError(where: string): UsageError {
  return new UsageError(`${where} would put an API key in the URL, where it stays in shell history, logs and proxies`, {
    hints: [KEY_IN_URL_HINT],
  });
}

/** Splits one `key=value` (the value may hold `=`); `flag` names the option in messages. */
export function splitPair(raw: string, flag: string): [string, string] {
  const eq = raw.indexOf("=");
  const name = eq === -1 ? raw : raw.slice(0, eq);
  if (eq === -1 || name.trim() === "") {
    throw new UsageError(`${flag} must be key=value (got "${raw}")`, { hints: [`e.g. ${flag} availability=in_stock`] });
  }
  if (!NAME.test(name)) throw new UsageError(`${flag} ${name}: a parameter name holds letters, digits, _ . - [ ] only`);
  if (isKeyParam(name)) throw keyInUrlError(`${flag} ${name}=…`);
  return [name, raw.slice(eq + 1)];
}

/**
 * `--param` values -> extra query parameters. `reserved` maps a parameter a flag covers
 * to that flag (`peptide` -> `--peptide`); naming it, or naming one twice, exits 2.
 */
export function extraParams(
  values: unknown,
  reserved: Record<string, string>,
  flag = "--param",
): Record<string, string> {
  const list = values === undefined ? [] : Array.isArray(values) ? values.map(String) : [String(values)];
  // Names are data: `constructor`, `toString` or `__proto__` are parameters like any
  // other, so no lookup may reach Object.prototype (a null-prototype map, own keys only).
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const raw of list) {
    const [name, value] = splitPair(raw, flag);
    const owner = Object.hasOwn(reserved, name) ? reserved[name] : undefined;
    if (owner) throw new UsageError(`${flag} ${name}=… is covered by ${owner}: use ${owner} instead`);
    if (Object.hasOwn(out, name)) throw new UsageError(`${flag} ${name} is given twice`);
    if (value === "") throw new UsageError(`${flag} ${name}= needs a value`);
    out[name] = value;
  }
  return out;
}
