import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../src/api/endpoints.js";
import { COMMANDS } from "../../src/commands/registry.js";
import { RESEARCH_NOTICE } from "../../src/core/research-notice.js";
import { runPep, scratch } from "../helpers/cli.js";

const OURS = COMMANDS.filter((d) =>
  ["peptides", "studies", "categories", "research-areas", "search"].includes(d.path[0]!),
);

describe("help of the research and study commands", () => {
  it("covers every research and study command: peptides, studies, categories, research-areas, search", () => {
    expect(OURS.map((d) => d.path.join(" ")).sort()).toEqual(
      [
        "categories",
        "peptides get",
        "peptides list",
        "peptides regulatory",
        "peptides research",
        "peptides studies",
        "research-areas",
        "search",
        "studies export",
        "studies get",
        "studies list",
      ].sort(),
    );
  });

  it.each(OURS.map((d) => [d.path.join(" "), d] as const))(
    "%s: notice, 2 or 3 examples of itself, every option's values and default",
    async (name, def) => {
      expect(def.examples!.length).toBeGreaterThanOrEqual(2);
      expect(def.examples!.length).toBeLessThanOrEqual(3);
      for (const e of def.examples!)
        expect(
          [def.path[0], def.aliases?.[0] ?? "-"].some(
            (w) => e.startsWith(`pep ${w}`) || e.startsWith(`pep --sandbox ${w}`),
          ),
        ).toBe(true);
      expect(def.description).toContain(RESEARCH_NOTICE);

      const tmp = scratch();
      try {
        const r = await runPep([...def.path, "--help"], { env: tmp.env, columns: 200 });
        expect(r.code).toBe(0);
        const help = r.out.replace(/\s+/g, " ");
        expect(help).toContain(RESEARCH_NOTICE);
        for (const e of def.examples!) expect(help).toContain(e.replace(/\s+/g, " "));
        for (const o of def.options ?? []) {
          if (o.choices) expect(help, `${name} --${o.long}`).toContain(o.choices.join(", "));
          if (o.default !== undefined) expect(help, `${name} --${o.long}`).toContain(`(default: ${String(o.default)})`);
        }
        if (def.list) expect(help).toContain(`(default: ${ENDPOINTS[def.calls!].defaultLimit})`);
      } finally {
        tmp.cleanup();
      }
    },
  );

  it("`areas` is an alias of research-areas, and search says its words are joined", async () => {
    const tmp = scratch();
    try {
      const areas = await runPep(["areas", "--help"], { env: tmp.env, columns: 200 });
      expect(areas.out).toContain("Usage: pep research-areas|areas");
      const search = await runPep(["search", "--help"], { env: tmp.env, columns: 200 });
      expect(search.out.replace(/\s+/g, " ")).toContain('`pep search growth factor` is `pep search "growth factor"`');
    } finally {
      tmp.cleanup();
    }
  });
});
