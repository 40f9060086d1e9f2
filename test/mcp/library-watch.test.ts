/**
 * The watch behind the library's subscriptions, on timers the test fires: it looks at the
 * sync records only once something is subscribed, one small query a look, and tells only
 * the sessions subscribed to a record the newer sync's change log names; a session gone
 * is forgotten. The library is a stand-in that answers the watch's three statements.
 */
import { describe, expect, it } from "vitest";
import type { Library } from "../../src/library/open.js";
import { LibraryWatch, pollMsOf, recordKey, type WatchTimers } from "../../src/mcp/library-watch.js";

function standIn() {
  const state = { maxSync: 1, changes: [] as Array<{ sync: number; resource: string; id: string }>, statements: 0 };
  const db = {
    exec: async () => undefined,
    get: async () => {
      state.statements++;
      return { id: state.maxSync };
    },
    all: async (_sql: string, params: readonly unknown[]) => {
      state.statements++;
      const [from, to] = params as [number, number];
      return state.changes
        .filter((c) => c.sync > from && c.sync <= to)
        .map((c) => ({ resource: c.resource, id: c.id }));
    },
  };
  const lib = { dialect: "sqlite", db, close: async () => undefined } as unknown as Library;
  return { state, lib };
}

function manualTimers() {
  const fns: Array<() => void> = [];
  const timers: WatchTimers = {
    every(_ms, fn) {
      fns.push(fn);
      return () => fns.splice(fns.indexOf(fn), 1);
    },
  };
  return { timers, fns };
}

describe("the library watch", () => {
  it("tells the subscribed sessions of the records a newer sync changed, and no one else", async () => {
    const { state, lib } = standIn();
    const { timers, fns } = manualTimers();
    const watch = new LibraryWatch(async () => lib, { intervalMs: 10_000, timers });
    expect(fns).toHaveLength(0); // nothing subscribed: no timer, no look
    const told: string[] = [];
    let open = true;
    const teller =
      (who: string, alive = () => true) =>
      () =>
        alive() && told.push(who) > 0;
    await watch.subscribe("a", "pep://studies/pmid-1", teller("a"));
    await watch.subscribe(
      "b",
      "pep://studies/pmid-1",
      teller("b", () => open),
    );
    await watch.subscribe("a", "pep://peptides/bpc-157", teller("a-peptide"));
    expect(fns).toHaveLength(1);
    await watch.look();
    expect(told).toEqual([]); // no newer sync
    state.maxSync = 2;
    state.changes.push({ sync: 2, resource: "studies", id: "pmid-1" }, { sync: 2, resource: "vendors", id: "v" });
    const before = state.statements;
    await watch.look();
    expect(told).toEqual(["a", "b"]);
    expect(state.statements - before).toBe(2); // the look, and the change log of the one newer sync
    open = false;
    state.maxSync = 3;
    state.changes.push({ sync: 3, resource: "studies", id: "pmid-1" });
    told.length = 0;
    await watch.look();
    expect(told).toEqual(["a"]); // b's session is gone: told no more
    await watch.close();
    expect(fns).toHaveLength(0);
  });

  it("names the records that can be subscribed to, and reads PEP_MCP_LIBRARY_POLL", () => {
    expect(recordKey("pep://vendors/vnd_1")).toBe("vendors/vnd_1");
    expect(recordKey("pep://studies/doi-10.1000--x")).toBe("studies/doi-10.1000--x");
    expect(recordKey("pep://peptides/bpc-157/research")).toBeUndefined();
    expect(recordKey("pep://library/tables")).toBeUndefined();
    expect(pollMsOf({})).toBe(10_000);
    expect(pollMsOf({ PEP_MCP_LIBRARY_POLL: "0.5" })).toBe(500);
    expect(pollMsOf({ PEP_MCP_LIBRARY_POLL: "0" })).toBe(10_000);
  });
  it("forgets a session that ended: its subscriptions go, and the looks stop when no one is left", async () => {
    const { lib } = standIn();
    const { timers, fns } = manualTimers();
    const watch = new LibraryWatch(async () => lib, { intervalMs: 10_000, timers });
    await watch.subscribe("a", "pep://studies/pmid-1", () => true);
    await watch.subscribe("b", "pep://studies/pmid-1", () => true);
    await watch.subscribe("a", "pep://vendors/vnd_1", () => true);
    expect(watch.size).toBe(2);
    watch.forget("a");
    expect(watch.size).toBe(1);
    expect(fns).toHaveLength(1);
    watch.forget("b");
    expect(watch.size).toBe(0);
    expect(fns).toHaveLength(0);
  });
});
