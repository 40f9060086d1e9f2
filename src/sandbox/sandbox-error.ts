/**
 * The one error type handlers throw; the server turns it into the API's error envelope
 * `{ error: { code, message, request_id } }` with the status and any extra headers.
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "SandboxError";
  }
}

export const notFound = (what: string, value: string) =>
  new SandboxError(404, "not_found", `no ${what} matches '${value}'`);
export const invalidParameter = (param: string, message: string) =>
  new SandboxError(400, "invalid_parameter", `${param} ${message}`);
