/**
 * Every manifest a test writes is read through here: parsed, and validated against the
 * published schema (docs/manifest.schema.json, JSON Schema 2020-12) before any assertion.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const SCHEMA = path.join(import.meta.dirname, "..", "..", "docs", "manifest.schema.json");

let validate: ReturnType<Ajv2020["compile"]> | undefined;

/** The schema's validator, compiled once per test file. */
export function manifestValidator(): ReturnType<Ajv2020["compile"]> {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTuples: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, "utf8")));
  }
  return validate;
}

/** The manifest's problems against the schema, one line each (none: valid). */
export function manifestErrors(manifest: unknown): string[] {
  const v = manifestValidator();
  return v(manifest) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}

/** `<file>.manifest.json`, parsed and checked against the schema (throws naming what does not fit). */
export function readManifest(file: string): any {
  const manifest: unknown = JSON.parse(readFileSync(`${file}.manifest.json`, "utf8"));
  const errors = manifestErrors(manifest);
  if (errors.length > 0)
    throw new Error(`${file}.manifest.json does not fit docs/manifest.schema.json:\n${errors.join("\n")}`);
  return manifest;
}
