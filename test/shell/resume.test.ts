/** The resume command printed under an error that cut a list short. */
import { describe, expect, it } from "vitest";
import { ApiError, PaginationLoopError, withResumeCursor } from "../../src/core/errors.js";
import { readInvocation } from "../../src/cli/invocation.js";
import { resumeCommand, resumeLines, resumeOf } from "../../src/cli/resume.js";

describe("resumeCommand", () => {
  it("replaces an old --cursor in either form and keeps every other word", () => {
    expect(resumeCommand(["studies", "list", "--cursor", "old", "-o", "csv"], "new")).toBe(
      "pep studies list -o csv --cursor=new",
    );
    expect(resumeCommand(["studies", "list", "--cursor=old", "-o", "csv"], "new")).toBe(
      "pep studies list -o csv --cursor=new",
    );
  });

  it("with a limit in force, sets --limit to what is left, in the form the user typed", () => {
    expect(resumeCommand(["studies", "list", "--limit", "50"], "c", { remaining: 30 })).toBe(
      "pep studies list --limit 30 --cursor=c",
    );
    expect(resumeCommand(["studies", "list", "--limit=50"], "c", { remaining: 30 })).toBe(
      "pep studies list --limit=30 --cursor=c",
    );
    expect(resumeCommand(["studies", "list"], "c", { remaining: 12 })).toBe("pep studies list --limit 12 --cursor=c");
  });

  it("an offline run's command says --offline, once, wherever the run's own words had it", () => {
    const offline = { offline: true };
    // PEP_OFFLINE or the profile made it offline: the words do not say so, the command must.
    expect(resumeCommand(["studies", "list", "--limit", "5"], "c", offline)).toBe(
      "pep --offline studies list --limit 5 --cursor=c",
    );
    expect(resumeCommand(["--offline", "studies", "list"], "c", offline)).toBe("pep --offline studies list --cursor=c");
    expect(resumeCommand(["studies", "list", "--offline=true"], "c", offline)).toBe(
      "pep studies list --offline=true --cursor=c",
    );
    // After `--` a word is an argument, not the flag.
    expect(resumeCommand(["studies", "list", "--", "--offline"], "c", offline)).toBe(
      "pep --offline studies list --cursor=c -- --offline",
    );
    expect(resumeCommand(["studies", "list"], "c", { offline: false })).toBe("pep studies list --cursor=c");
  });

  it("the resume line under an error of an offline run says --offline", () => {
    const err = withResumeCursor(new ApiError({ status: 503, message: "down" }), "c2");
    const words = { argv: ["studies", "list", "--all"], cursorGiven: undefined };
    expect(resumeLines(err, words, { command: ["studies", "list"], offline: true })).toEqual([
      "to resume: pep --offline studies list --all --cursor=c2",
    ]);
  });

  it("pep api: the cursor goes in as -F cursor=…, replacing an old one in any form", () => {
    const opts = { viaField: true };
    expect(resumeCommand(["api", "/studies", "--paginate", "-F", "cursor=old", "-F", "limit=5"], "new", opts)).toBe(
      "pep api /studies --paginate -F limit=5 -F cursor=new",
    );
    expect(resumeCommand(["api", "/studies", "--paginate", "-Fcursor=old"], "new", opts)).toBe(
      "pep api /studies --paginate -F cursor=new",
    );
    expect(resumeCommand(["api", "/studies", "--paginate", "--field=cursor=old"], "new", opts)).toBe(
      "pep api /studies --paginate -F cursor=new",
    );
    expect(resumeCommand(["api", "/studies?cursor=old&limit=5", "--paginate"], "new", opts)).toBe(
      "pep api '/studies?limit=5' --paginate -F cursor=new",
    );
    expect(resumeCommand(["api", "/studies?limit=5&cursor=old", "--paginate"], "new", opts)).toBe(
      "pep api '/studies?limit=5' --paginate -F cursor=new",
    );
  });

  it("puts the new flags before a `--`, where options still count", () => {
    expect(resumeCommand(["studies", "list", "--", "x"], "c")).toBe("pep studies list --cursor=c -- x");
  });

  it("quotes what the shell would split or expand", () => {
    expect(resumeCommand(["studies", "list", "--search", "a b; rm -rf ~"], "c$1")).toBe(
      "pep studies list --search 'a b; rm -rf ~' '--cursor=c$1'",
    );
  });
});

/** The run's words as an invocation holds them. */
const w = (argv: string[]) => readInvocation(argv, {});

describe("resumeLines", () => {
  const cut = () => withResumeCursor(new ApiError({ status: 503, message: "down" }), "cur", 7);

  it("names the resume command with what is left of the limit", () => {
    expect(resumeLines(cut(), w(["studies", "list", "--page-size", "3"]), { command: ["studies", "list"] })).toEqual([
      "to resume: pep studies list --page-size 3 --limit 7 --cursor=cur",
    ]);
  });

  it("with --file, says the file was left as it was and to run the same command again", () => {
    const lines = resumeLines(cut(), w(["studies", "export", "--file", "my refs.csv"]), {
      command: ["studies", "export"],
      file: "my refs.csv",
    });
    expect(lines).toEqual([
      "hint: 'my refs.csv' was left as it was; run the same command again to fetch the whole list",
    ]);
  });

  it("does not offer back a --cursor the user gave that the API refused (a 400)", () => {
    const refused = withResumeCursor(new ApiError({ status: 400, code: "invalid_cursor" }), "bad-cursor");
    const r = resumeOf(refused, w(["studies", "list", "--cursor", "bad-cursor"]), { command: ["studies", "list"] });
    expect(r.command).toBeUndefined();
    expect(r.hints.join(" ")).toContain("the API did not accept --cursor=bad-cursor");
    // A 400 on a later page, from a cursor the API itself gave, is still resumable.
    const later = withResumeCursor(new ApiError({ status: 400 }), "api-cursor");
    expect(resumeOf(later, w(["studies", "list", "--cursor", "bad-cursor"])).command).toContain("--cursor=api-cursor");
  });

  it("says nothing for an error that cut nothing short, or a cursor loop", () => {
    expect(resumeLines(new ApiError({ status: 503 }), w(["studies", "list"]))).toEqual([]);
    expect(resumeLines(new PaginationLoopError("x"), w(["studies", "list"]))).toEqual([]);
  });
});
