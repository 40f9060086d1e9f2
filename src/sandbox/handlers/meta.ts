/** The API index (`GET /`) and the health check (`GET /health`). */
import { ENDPOINTS } from "../../api/endpoints.js";
import type { Handler } from "../request-context.js";
import { DATA_NOW_ISO } from "../data/data-now.js";

export const index: Handler = (ctx) => ({
  data: {
    name: "Peptide research API (sandbox)",
    api_version: "v1",
    openapi_version: "1.0.0",
    sandbox: true,
    base_url: ctx.baseUrl,
    documentation_url: "https://research.example/docs/api",
    notice: "Synthetic data for testing clients; not real research.",
    endpoints: Object.values(ENDPOINTS).map((e) => ({
      path: e.path,
      method: "GET",
      scope: e.scope,
      key_required: e.keyRequired,
      metered: e.metered,
      paginated: e.list,
    })),
  },
});

export const health: Handler = () => ({
  data: { status: "ok", database: "ok", api_version: "v1", sandbox: true, data_as_of: DATA_NOW_ISO },
});
