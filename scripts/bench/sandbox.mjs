// Starts sandbox-child.mjs and talks to it over IPC: its base URL, the counting proxy's
// URL, and the proxy's counters.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

const child = fileURLToPath(new URL("./sandbox-child.mjs", import.meta.url));

/** Options: { sandboxModule (dist/sandbox.js), scale, rateLimit: { requests, seconds }, alignWindows }. */
export async function startBenchSandbox(options = {}) {
  const proc = fork(child, [JSON.stringify(options)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const ready = await new Promise((resolve, reject) => {
    proc.once("error", reject);
    proc.once("exit", (code) => reject(new Error(`sandbox exited with code ${code} before it was ready`)));
    proc.once("message", resolve);
  });
  proc.removeAllListeners("exit");
  let next = 0;
  const ask = (cmd) =>
    new Promise((resolve) => {
      const id = ++next;
      const onMessage = (msg) => {
        if (msg?.id !== id) return;
        proc.off("message", onMessage);
        resolve(msg);
      };
      proc.on("message", onMessage);
      proc.send({ cmd, id });
    });
  return {
    baseUrl: ready.baseUrl,
    proxyUrl: ready.proxyUrl,
    /** { requests: [{ t, path, status }], received, sent, served } since the last reset. */
    stats: () => ask("stats"),
    reset: () => ask("reset"),
    close: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.disconnect();
      }),
  };
}
