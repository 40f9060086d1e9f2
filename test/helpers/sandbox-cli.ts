/**
 * One sandbox per test file and `pep` run in-process against it, with the number of
 * requests each run sent (to prove that a refused flag sent nothing).
 */
import { afterAll, beforeAll } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { runPep, scratch, type PepRun } from "./cli.js";

export interface SandboxCli {
  baseUrl: string;
  /** Scratch folder (config, cache, files written by --file). */
  dir: string;
  /** `pep <argv> --base-url <sandbox>`; `sent` = requests the sandbox received during the run. */
  pep(
    argv: readonly string[],
    options?: { tty?: boolean; columns?: number; env?: Record<string, string> },
  ): Promise<PepRun & { sent: number }>;
  requestCount(): number;
  close(): Promise<void>;
}

export async function startSandboxCli(options: Parameters<typeof startSandbox>[0] = {}): Promise<SandboxCli> {
  const sb = await startSandbox({ port: 0, ...options });
  const tmp = scratch("pep-e2e-");
  return {
    baseUrl: sb.baseUrl,
    dir: tmp.dir,
    requestCount: () => sb.requestCount(),
    async pep(argv, o = {}) {
      const before = sb.requestCount();
      const r = await runPep([...argv, "--base-url", sb.baseUrl], {
        env: { ...tmp.env, ...o.env },
        ...(o.tty !== undefined ? { tty: o.tty } : {}),
        ...(o.columns !== undefined ? { columns: o.columns } : {}),
      });
      return { ...r, sent: sb.requestCount() - before };
    },
    async close() {
      await sb.close();
      tmp.cleanup();
    },
  };
}

/**
 * A sandbox for the test file that calls this: started before its tests, closed after
 * them. The object is usable inside tests (not at the file's top level).
 */
export function useSandboxCli(options: Parameters<typeof startSandbox>[0] = {}): SandboxCli {
  let cli: SandboxCli | undefined;
  beforeAll(async () => {
    cli = await startSandboxCli(options);
  });
  afterAll(async () => {
    await cli?.close();
  });
  const started = (): SandboxCli => {
    if (!cli) throw new Error("the sandbox starts in beforeAll: use it inside a test");
    return cli;
  };
  return {
    get baseUrl() {
      return started().baseUrl;
    },
    get dir() {
      return started().dir;
    },
    pep: (argv, o) => started().pep(argv, o),
    requestCount: () => started().requestCount(),
    close: () => started().close(),
  };
}
