/**
 * Every command definition has its code: its own loader, or, for a command that is only
 * its endpoint (a list, a record by id, or a list under a path parameter), the
 * endpoint's (shared/endpoint-command.ts).
 * Every loader belongs to a definition.
 */
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../src/api/endpoints.js";
import { LOADERS, loadCommand } from "../../src/commands/loaders.js";
import { COMMANDS } from "../../src/commands/registry.js";

describe("command loaders", () => {
  it("every loader belongs to a definition, and a definition without one calls an endpoint", () => {
    const defined = new Set(COMMANDS.map((d) => d.path.join(" ")));
    for (const name of Object.keys(LOADERS)) expect(defined, name).toContain(name);
    const derived = COMMANDS.filter((d) => LOADERS[d.path.join(" ")] === undefined);
    for (const def of derived) {
      expect(def.calls, def.path.join(" ")).toBeDefined();
      const e = ENDPOINTS[def.calls!];
      // A list (under a path parameter or not), or a record by id: the runner takes everything else from the descriptor.
      expect(e.list ? def.list === true : e.pathParam !== undefined, def.path.join(" ")).toBe(true);
      // A path parameter is the command's argument.
      if (e.pathParam !== undefined) expect(def.args?.[0]?.required, def.path.join(" ")).toBe(true);
    }
    expect(derived).not.toEqual([]);
    // All three shapes are among them: peptides studies is a list under a path parameter.
    expect(derived.map((d) => d.path.join(" "))).toContain("peptides studies");
  });

  it("each load a module with a run function", async () => {
    for (const def of COMMANDS) expect(typeof (await loadCommand(def)).run, def.path.join(" ")).toBe("function");
  });
});
