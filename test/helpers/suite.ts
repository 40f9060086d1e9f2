/**
 * One loopback server for a test file: started before its tests (after checking that
 * dist/ is built, since some cases spawn the executable), optionally reset after each,
 * closed at the end, with a scratch config and cache folder in `tmp`.
 *
 *   const suite = useLoopback(() => startHostileApi(), "pep-hostile-");
 *   inProcessPep([...], { env: { ...suite.tmp.env, PEP_BASE_URL: suite.api.baseUrl } });
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { isBuilt, scratch } from "./cli.js";

export interface Suite<S> {
  /** The running server (only inside tests and hooks). */
  readonly api: S;
  tmp: ReturnType<typeof scratch>;
}

export function useLoopback<S extends { close(): Promise<void> }>(
  start: () => Promise<S>,
  prefix: string,
  options: { afterEach?: (server: S) => void } = {},
): Suite<S> {
  let server: S | undefined;
  const tmp = scratch(prefix);
  beforeAll(async () => {
    if (!isBuilt()) throw new Error("dist/ is missing: run `npm run build` before these tests");
    server = await start();
  });
  if (options.afterEach) {
    const reset = options.afterEach;
    afterEach(() => {
      if (server) reset(server);
    });
  }
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });
  return {
    get api(): S {
      if (!server) throw new Error("the test server is not started yet");
      return server;
    },
    tmp,
  };
}
