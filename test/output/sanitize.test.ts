import { describe, expect, it } from "vitest";
import {
  cleanBlock,
  cleanId,
  cleanLine,
  escapeTsv,
  safeLinkTarget,
  stripTerminalControls,
} from "../../src/core/sanitize.js";
import { item, list, run } from "./helpers.js";

/** Strings an attacker controlling API text might send. */
const HOSTILE = {
  clipboard: "Safe\x1b]52;c;ZWNobyBwd25lZA==\x07name",
  fakeLink: "\x1b]8;;https://evil.test\x1b\\Click me\x1b]8;;\x1b\\",
  csiColour: "\x1b[31mred\x1b[0m text",
  clearScreen: "\x1b[2J\x1b[Hwiped",
  c1Csi: "c1\x9b31mcsi",
  c1Osc: "c1\x9d0;title\x9cosc",
  unterminatedOsc: "before\x1b]0;set title forever",
  dcs: "a\x1bPq#0;2;0;0;0#0~~\x1b\\b",
  bell: "ding\x07dong",
  backspace: "good\x08\x08\x08\x08evil",
  carriage: "safe text\rEVIL",
  del: "del\x7fete",
  nul: "nu\x00ll",
  bidi: "abc\u202edcba",
  lone: "esc\x1b",
};

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe("sanitize", () => {
  it("removes whole escape sequences, leaving the visible text", () => {
    expect(stripTerminalControls(HOSTILE.clipboard)).toBe("Safename");
    expect(stripTerminalControls(HOSTILE.fakeLink)).toBe("Click me");
    expect(stripTerminalControls(HOSTILE.csiColour)).toBe("red text");
    expect(stripTerminalControls(HOSTILE.clearScreen)).toBe("wiped");
    expect(stripTerminalControls(HOSTILE.c1Csi)).toBe("c1csi");
    expect(stripTerminalControls(HOSTILE.c1Osc)).toBe("c1osc");
    expect(stripTerminalControls(HOSTILE.unterminatedOsc)).toBe("before");
    expect(stripTerminalControls(HOSTILE.dcs)).toBe("ab");
    expect(stripTerminalControls(HOSTILE.bell)).toBe("dingdong");
    expect(stripTerminalControls(HOSTILE.backspace)).toBe("goodevil");
    expect(stripTerminalControls(HOSTILE.del)).toBe("delete");
    expect(stripTerminalControls(HOSTILE.nul)).toBe("null");
    expect(stripTerminalControls(HOSTILE.bidi)).toBe("abcdcba");
    expect(stripTerminalControls(HOSTILE.lone)).toBe("esc");
  });

  it("keeps printable Unicode untouched", () => {
    const text = "Müller – Żółć 日本語 😀 café";
    expect(stripTerminalControls(text)).toBe(text);
    expect(cleanLine(text)).toBe(text);
  });

  it("never lets a carriage return overwrite earlier text", () => {
    expect(cleanLine(HOSTILE.carriage)).toBe("safe text EVIL");
    expect(cleanBlock(HOSTILE.carriage)).toBe("safe text\nEVIL");
    expect(cleanBlock("a\r\nb\tc")).toBe("a\nb  c");
  });

  it("escapes TSV separators as backslash sequences", () => {
    expect(escapeTsv("a\tb\nc\rd\\e")).toBe("a\\tb\\nc\\rd\\\\e");
    expect(escapeTsv(HOSTILE.csiColour)).toBe("red text");
  });

  it("links only to plain http(s) URLs", () => {
    expect(safeLinkTarget("https://example.test/a?b=1")).toBe("https://example.test/a?b=1");
    expect(safeLinkTarget("javascript:alert(1)")).toBeUndefined();
    expect(safeLinkTarget("https://evil.test\x1b\\text")).toBeUndefined();
    expect(safeLinkTarget("https://evil.test/\u202e")).toBeUndefined();
    expect(safeLinkTarget("https://a.test/ b")).toBeUndefined();
    expect(safeLinkTarget(42)).toBeUndefined();
  });
});

describe("hostile API text is inert in human and delimited formats", () => {
  const hostileItems = Object.entries(HOSTILE).map(([id, text]) => ({
    id,
    name: text,
    summary: text,
    categories: [text],
    url: `https://ok.test/${id}`,
  }));

  it("table: no control characters reach the output, even with colour and links on", async () => {
    const { out } = await run(list("peptide", hostileItems), "table", { columns: 120 });
    expect(out).not.toMatch(CONTROL);
    expect(out).toContain("Click me");
    const linked = await run(list("peptide", hostileItems), "table", { columns: 120, color: true, hyperlinks: true });
    // Only our own sequences: SGR colour codes and OSC 8 links to the items' own URLs.
    const sequences = linked.out.match(/\x1b\][^\x1b\x07]*(?:\x07|\x1b\\)|\x1b\[[0-9;]*m/g) ?? [];
    for (const s of sequences) expect(s).toMatch(/^\x1b\]8;;(https:\/\/ok\.test\/\w+)?\x1b\\$|^\x1b\[[0-9;]*m$/);
    expect(linked.out.replace(/\x1b\]8;;[^\x1b]*\x1b\\|\x1b\[[0-9;]*m/g, "")).not.toMatch(CONTROL);
    expect(linked.out).not.toContain("evil.test");
  });

  it("card: no control characters, line breaks only as real new lines", async () => {
    for (const [id, text] of Object.entries(HOSTILE)) {
      const { out } = await run(
        item("peptide-profile", { name: text, summary: text, safety: { notes: text }, references: [{ title: text }] }),
        "table",
      );
      expect(out, id).not.toMatch(CONTROL);
    }
  });

  it("keys as labels: a comparison row, a card label and a nested cell carry no sequence", async () => {
    const key = `zz ${HOSTILE.clipboard}${HOSTILE.bidi}${HOSTILE.c1Csi}`;
    const vendors = [
      { name: "A", [key]: "x", more: { [key]: "y" } },
      { name: "B", [key]: "z" },
    ];
    const compared = await run(item("vendor-compare", { vendors }), "table", { columns: 120 });
    expect(compared.out).toContain("Zz safename");
    expect(compared.out).not.toMatch(CONTROL);
    const card = await run(
      item("peptide-profile", { name: "P", [key]: "v", nested: { deeper: { [key]: "w" } } }),
      "table",
    );
    expect(card.out).not.toMatch(CONTROL);
    const table = await run(list("peptide", [{ name: "P", categories: { [key]: "c" } }]), "table");
    expect(table.out).not.toMatch(CONTROL);
  });

  it("tsv and csv: no escape sequences; TSV rows stay one line each", async () => {
    const tsv = await run(list("peptide", hostileItems), "tsv");
    expect(tsv.out).not.toMatch(CONTROL);
    expect(tsv.out.trimEnd().split("\n")).toHaveLength(hostileItems.length + 1);
    const csv = await run(list("peptide", hostileItems), "csv");
    expect(csv.out).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/);
  });

  it("json escapes control characters by itself and keeps the text", async () => {
    const { out } = await run(list("peptide", hostileItems), "json");
    expect(out).not.toMatch(CONTROL);
    expect(JSON.parse(out)).toEqual(hostileItems);
  });
});

describe("invisible characters: flagged where they could make two values look alike, kept where they show", () => {
  it("zero-width and bidi controls in a name show as <U+…>, as in an id", () => {
    expect(cleanLine("Sema\u200bglutide")).toBe("Sema<U+200B>glutide");
    expect(cleanLine("abc\u202edef")).toBe("abc<U+202E>def");
    expect(cleanLine("a\u200db")).toBe("a<U+200D>b");
    expect(cleanLine("\ufeffname\u2060x")).toBe("<U+FEFF>name<U+2060>x");
    expect(cleanId("bpc\u200b-157")).toBe("bpc<U+200B>-157");
  });

  it("a ZWJ inside an emoji sequence, and the tags of a subdivision flag, are kept", () => {
    const scientist = "Lab \u{1f469}\u200d\u{1f52c} team";
    expect(cleanLine(scientist)).toBe(scientist);
    const family = "\u{1f468}\u{1f3fd}\u200d\u{1f469}\u200d\u{1f467}";
    expect(cleanLine(family)).toBe(family);
    const england = "\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}";
    expect(cleanLine(england)).toBe(england);
    // A tag character anywhere else hides text: flagged.
    expect(cleanLine("a\u{e0041}b")).toBe("a<U+E0041>b");
  });

  it("ZWNJ and ZWJ between letters of scripts that join by them are kept", () => {
    const persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645";
    expect(cleanLine(persian)).toBe(persian);
    const devanagari = "\u0915\u094d\u200d\u0937";
    expect(cleanLine(devanagari)).toBe(devanagari);
    const malayalam = "\u0d28\u0d4d\u200d";
    // At the end of the text there is no letter after it: flagged.
    expect(cleanLine(malayalam)).toBe("\u0d28\u0d4d<U+200D>");
    // Between Latin letters a joiner changes nothing on screen: flagged.
    expect(cleanLine("ab\u200ccd")).toBe("ab<U+200C>cd");
  });

  it("CJK and emoji without joiners pass as they are", () => {
    expect(cleanLine("肽研究 🧪 ペプチド")).toBe("肽研究 🧪 ペプチド");
  });
});

describe("a NUL in a cell", () => {
  it("shows as <U+0000>, so that nul\\0byte never reads as nulbyte; other controls are still removed", () => {
    expect(cleanLine("nul\0byte")).toBe("nul<U+0000>byte");
    expect(cleanLine("bell\x07ed")).toBe("belled");
    expect(cleanId("id\0x")).toBe("id<U+0000>x");
  });
});
