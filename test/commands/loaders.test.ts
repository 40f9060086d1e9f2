/** Every command definition has its code, and every loader belongs to a definition. */
import { describe, expect, it } from "vitest";
import { LOADERS } from "../../src/commands/loaders.js";
import { COMMANDS } from "../../src/commands/registry.js";

describe("command loaders", () => {
  it("pair one to one with the definitions", () => {
    const defined = COMMANDS.map((d) => d.path.join(" ")).sort();
    expect(Object.keys(LOADERS).sort()).toEqual(defined);
  });

  it("each load a module with a run function", async () => {
    for (const [name, load] of Object.entries(LOADERS)) expect(typeof (await load()).run, name).toBe("function");
  });
});
