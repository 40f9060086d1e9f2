import { ENDPOINTS } from "../../api/endpoints.js";
import type { Run } from "../../core/command.js";

export const run: Run = async (_input, ctx) => {
  const client = await ctx.client(ENDPOINTS.index);
  const res = await client.request(ENDPOINTS.index.path, { signal: ctx.io.signal });
  return { kind: "item", resource: "index", data: res.data, meta: res.meta };
};
