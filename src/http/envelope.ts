/**
 * zod schemas of the API's two envelopes (docs/api.md#response-envelopes and
 * docs/api.md#errors). Both are loose: unknown fields
 * pass through untouched, so a newer server never breaks an older client. Only what
 * the client relies on is checked: `data` is present, `pagination` (when sent) has a
 * cursor and a has-more flag, and an error carries its code and message.
 */
// zod's mini API, as in src/api/query-schemas.ts: only the functions used are bundled.
import * as z from "zod/mini";
import type { $ZodError } from "zod/v4/core";
import type { ApiErrorBody } from "../core/errors.js";
import type { Meta, Pagination } from "./client-types.js";

/** `meta` is promised on every success; a missing or odd one is read as `{}`. */
const metaSchema = z.catch(z.looseObject({}), {});

/**
 * `pagination`: a missing `next_cursor` is `null`; a missing `has_more` is read from
 * the cursor. An empty-string cursor means there is none.
 */
export const paginationSchema = z.pipe(
  z.looseObject({
    next_cursor: z.nullish(z.string()),
    has_more: z.optional(z.boolean()),
  }),
  z.transform((p): Pagination => {
    const cursor = typeof p.next_cursor === "string" && p.next_cursor !== "" ? p.next_cursor : null;
    return { ...p, next_cursor: cursor, has_more: p.has_more ?? cursor !== null };
  }),
);

export const successEnvelopeSchema = z
  .looseObject({
    data: z.unknown(),
    pagination: z.nullish(paginationSchema),
    meta: z.optional(metaSchema),
  })
  .check(z.refine((b) => "data" in b, { message: "no `data` field", path: ["data"] }));

export interface SuccessEnvelope {
  data: unknown;
  pagination: Pagination | undefined;
  meta: Meta;
}

const optionalText = z.catch(z.optional(z.pipe(z.union([z.string(), z.number()]), z.transform(String))), undefined);

export const errorEnvelopeSchema = z.looseObject({
  error: z.looseObject({
    code: optionalText,
    message: optionalText,
    request_id: optionalText,
  }),
});

/**
 * Deepest nesting an answer may have. The API's records are a few levels deep; every
 * printer walks values recursively, so a body nested thousands deep would exhaust the
 * stack (a crash reported as a bug) instead of being refused as not the API's JSON.
 */
export const MAX_DEPTH = 512;

/** Whether `value` nests objects or arrays deeper than `max`, walked without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The success envelope, or the reason it is not one (a short zod summary). */
export function parseSuccess(body: unknown): { ok: true; value: SuccessEnvelope } | { ok: false; reason: string } {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return { ok: false, reason: `expected an object with \`data\`, got ${describe(body)}` };
  }
  if (!("data" in body)) return { ok: false, reason: `no \`data\` field (fields: ${fieldList(body)})` };
  if (nestsDeeperThan(body, MAX_DEPTH)) return { ok: false, reason: `nested deeper than ${MAX_DEPTH} levels` };
  const r = successEnvelopeSchema.safeParse(body);
  if (!r.success) return { ok: false, reason: summarize(r.error) };
  return {
    ok: true,
    value: { data: r.data.data, pagination: r.data.pagination ?? undefined, meta: (r.data.meta ?? {}) as Meta },
  };
}

/** The error envelope, when the body is one. */
export function parseError(body: unknown): { error: ApiErrorBody } | undefined {
  if (nestsDeeperThan(body, MAX_DEPTH)) return undefined;
  const r = errorEnvelopeSchema.safeParse(body);
  if (!r.success) return undefined;
  const e = r.data.error;
  const error: ApiErrorBody = { ...e };
  for (const k of ["code", "message", "request_id"] as const) if (error[k] === undefined) delete error[k];
  return { ...r.data, error };
}

/** The first few top-level names, printable: what the server sent instead. */
function fieldList(body: object): string {
  const names = Object.keys(body).map((k) => k.replace(/[^\w.-]/g, "?").slice(0, 40));
  if (names.length === 0) return "none";
  return names.length > 5 ? `${names.slice(0, 5).join(", ")}, …` : names.join(", ");
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}

function summarize(err: $ZodError): string {
  return err.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}
