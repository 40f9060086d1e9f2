import { ENDPOINTS } from "../../api/endpoints.js";
import type { Run } from "../../core/command.js";

/** A 503 from /health surfaces as an ApiError, which maps to exit 6. */
export const run: Run = async (_input, ctx) => {
  const client = await ctx.client(ENDPOINTS.health);
  const res = await client.request(ENDPOINTS.health.path, { signal: ctx.io.signal, noCache: true });
  return { kind: "item", resource: "health", data: res.data, meta: res.meta };
};
