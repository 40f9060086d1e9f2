/**
 * The client of an offline run (`--offline`, PEP_OFFLINE, the profile's `offline`): the
 * library opened on first use, and opened anew when a server that lives on learns of a
 * newer sync (`Context.renewLibrary`). Split from run-context.ts, which makes the run's
 * other clients.
 */
import type { Client } from "../http/client-types.js";
import { watchForSandbox } from "../core/sandbox-notice.js";
import type { LibraryProvenance } from "../offline/open-offline.js";
import type { ResolvedConfig } from "../config/config-types.js";
import type { Deps, GlobalOptions } from "../core/command-context.js";
import type { IO } from "../core/io.js";

/** The run's lines on standard error that an offline client uses. */
interface Lines {
  sandboxSeen(url: string): void;
  notice(line: string): void;
  debug(line: string): void;
}

/** The client of an offline run: from the library, sandbox data still marked, the walks told. */
export async function libraryClient(
  init: { config: () => Promise<ResolvedConfig>; io: IO; globals: GlobalOptions; deps: Deps },
  { sandboxSeen, notice, debug }: Lines,
  cleanups: Array<() => Promise<void> | void>,
  provenance: { library: LibraryProvenance | undefined; apiVersion: string | undefined },
): Promise<Client> {
  const [{ openOfflineClient, tellingWalks }, { paginate }] = await Promise.all([
    import("../offline/open-offline.js"),
    import("../http/paginate.js"),
  ]);
  const cfg = await init.config();
  const client = await openOfflineClient({
    env: init.io.env,
    cwd: init.io.cwd,
    profile: cfg.profile,
    db: cfg.db,
    timeoutMs: cfg.timeoutSeconds * 1000,
    ...tellingWalks(provenance, notice, debug, init.globals.asOf),
    maxAge: init.globals.maxAge,
    asOf: init.globals.asOf,
    now: init.deps.clock?.now() ?? Date.now(),
  });
  cleanups.push(() => client.close());
  return watchForSandbox(client, paginate, sandboxSeen);
}

/**
 * The offline client, made on first use and made anew on the first use after `renew`;
 * the one before the last renewal is closed at the next (a call may still be reading it).
 */
export function renewable(
  make: () => Promise<Client>,
  once: (make: () => Promise<Client>) => () => Promise<Client>,
): { client: () => Promise<Client>; renew: () => void } {
  let current = once(make);
  let previous: (() => Promise<Client>) | undefined;
  return {
    client: () => current(),
    renew() {
      void previous?.().then(
        (c) => c.close(),
        () => undefined,
      );
      previous = current;
      current = once(make);
    },
  };
}
