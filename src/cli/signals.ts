/**
 * The process's signals and broken pipes, for a run on the real process (tests hand `run`
 * their own IO and abort it themselves). A signal aborts the run, so a `--file` temp file
 * is removed and the target left as it was, and the run exits 128 + the signal's number
 * (130 for Ctrl-C, 129 when the terminal hangs up, 131 for Ctrl-\, 143 for `kill`); a
 * second signal exits at once.
 */
import { constants } from "node:os";
import { EXIT, InterruptedError } from "../core/errors.js";
import type { IO } from "../core/io.js";

const osSignals: Partial<Record<NodeJS.Signals, number>> = constants.signals;

const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const;

/** What one run knows about how it is being ended. */
export interface Ending {
  /** The signal that ended the run, when one did. */
  readonly signal: NodeJS.Signals | undefined;
  /** 128 + the number of the signal that ended the run; 130 when none is known. */
  exitCode(): number;
  /** Work to do synchronously if a second signal exits at once (drop a temp file). */
  onHardExit(fn: () => void): () => void;
}

/** An ending for a run that no signal reaches (tests, embedding). */
export function noEnding(): Ending {
  return { signal: undefined, exitCode: () => EXIT.interrupted, onHardExit: () => () => {} };
}

/**
 * Attaches the process's ending signals to `controller`. A closed stdout (`pep … | head`)
 * ends the run quietly with 0; a closed stderr only loses what was still to be said there.
 */
export function attachProcessSignals(controller: AbortController, io: IO): Ending & { detach(): void } {
  let count = 0;
  let endedBy: NodeJS.Signals | undefined;
  const hardExit = new Set<() => void>();
  const exitCode = () => {
    const n = endedBy === undefined ? undefined : osSignals[endedBy];
    return n === undefined ? EXIT.interrupted : 128 + n;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    count++;
    if (count > 1) {
      for (const fn of hardExit) fn();
      process.exit(exitCode());
    }
    endedBy = signal;
    controller.abort(new InterruptedError());
  };
  const onPipeError = (e: NodeJS.ErrnoException) => {
    // The reader went away: stop fetching and exit without noise.
    if (e.code === "EPIPE") process.exit(EXIT.ok);
  };
  const onStderrError = () => {};
  for (const s of ENDING_SIGNALS) process.on(s, onSignal);
  io.stdout.on("error", onPipeError);
  io.stderr.on("error", onStderrError);
  return {
    get signal() {
      return endedBy;
    },
    exitCode,
    onHardExit(fn) {
      hardExit.add(fn);
      return () => hardExit.delete(fn);
    },
    detach() {
      // An interrupted run keeps its handlers until the process exits: a second signal
      // landing while it unwinds must still exit at once, not kill it by the signal's default.
      if (count > 0) return;
      for (const s of ENDING_SIGNALS) process.off(s, onSignal);
    },
  };
}
