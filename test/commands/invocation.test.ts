/**
 * A run builds into commander only the command its words name exactly; anything else
 * (help, a slip, a group alone) builds the whole tree, so that help, errors and "did you
 * mean" see every command.
 */
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/commands/registry.js";
import { readInvocation } from "../../src/cli/invocation.js";
import { descriptionOf } from "../../src/core/command.js";

const paths = (argv: string[]) => {
  const defs = readInvocation(argv, {}).defs;
  return defs === COMMANDS ? "all" : defs.map((d) => d.path.join(" "));
};

describe("the definitions an invocation builds", () => {
  it("names one command: that one alone, past global flags and their values", () => {
    expect(paths(["peptides", "list", "-o", "json"])).toEqual(["peptides list"]);
    expect(paths(["--profile", "work", "-o", "csv", "studies", "export", "--all"])).toEqual(["studies export"]);
    expect(paths(["search", "growth", "factor"])).toEqual(["search"]);
    expect(paths(["areas"])).toEqual(["research-areas"]);
    expect(paths(["peptides", "get", "--help"])).toEqual(["peptides get"]);
  });

  it("anything else: every command", () => {
    for (const argv of [
      [],
      ["help", "peptides"],
      ["peptides"],
      ["peptides", "lst"],
      ["nosuch"],
      ["--", "peptides", "list"],
    ])
      expect(paths(argv), argv.join(" ")).toBe("all");
    // A flag value that looks like a command is not taken for one.
    expect(paths(["--profile", "peptides", "list"])).toBe("all");
  });

  it("a definition's costly help text is built only when asked for (pep mcp lists its tools)", () => {
    const mcp = COMMANDS.find((d) => d.path.join(" ") === "mcp")!;
    expect(mcp.description).toBeUndefined();
    expect(descriptionOf(mcp)).toMatch(/list_vendors\(/);
    expect(paths(["peptides", "list"])).not.toContain("mcp");
  });
});

describe("readInvocation", () => {
  it("reads the -o word, the --cursor given and the command words once, past global flags", () => {
    const inv = readInvocation(["--profile", "work", "studies", "list", "-ojson", "--cursor=-abc"], {});
    expect(inv.outputWord).toBe("json");
    expect(inv.cursorGiven).toBe("-abc");
    expect(inv.commandWords).toEqual(["studies", "list"]);
    expect(inv.machineErrors).toBe(true);
    expect(readInvocation(["peptides", "list"], { PEP_OUTPUT: "ndjson" }).machineErrors).toBe(true);
    expect(readInvocation(["peptides", "list", "-o", "csv"], { PEP_OUTPUT: "json" }).machineErrors).toBe(false);
  });

  it("turns `help a b` into `a b --help`, and knows `help globals`", () => {
    expect(readInvocation(["help", "peptides", "list"], {}).words).toEqual(["peptides", "list", "--help"]);
    expect(readInvocation(["help", "globals"], {}).helpGlobals).toBe(true);
    expect(readInvocation(["peptides", "list"], {}).helpTarget).toBeUndefined();
  });
});
