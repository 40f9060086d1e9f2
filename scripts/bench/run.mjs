// Runs one command and times it from spawn to exit (wall clock, process start-up included).
import { spawnSync } from "node:child_process";
import { openSync, closeSync } from "node:fs";

/**
 * Runs `cmd args` with `env`; stdout goes to `outFile` when given (else it is captured).
 * Returns { ms, status, stdout, stderr }. A failing command throws with its stderr, so a
 * broken setup never passes for a fast one.
 */
export function timed(cmd, args, { env, outFile, cwd, allowFail = false } = {}) {
  const fd = outFile ? openSync(outFile, "w") : undefined;
  try {
    const start = process.hrtime.bigint();
    const r = spawnSync(cmd, args, {
      env,
      cwd,
      stdio: ["ignore", fd ?? "pipe", "pipe"],
      maxBuffer: 256 * 1024 * 1024,
      encoding: "utf8",
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.error) throw r.error;
    if (r.status !== 0 && !allowFail) {
      throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status ?? r.signal}: ${String(r.stderr).slice(-800)}`);
    }
    return { ms, status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Interleaves the variants (A B C A B C ...) `runs` times after `warmup` untimed rounds,
 * so drift on a shared machine falls on every variant alike. Returns ms per variant.
 */
export function interleave(variants, runs, warmup = 1) {
  const times = variants.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    variants.forEach((v, j) => {
      const r = v();
      if (i >= warmup) times[j].push(typeof r === "number" ? r : r.ms);
    });
  }
  return times;
}

/** Lines in a file (a final line without a newline counts). */
export function lineCount(text) {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith("\n") ? n : n + 1;
}
