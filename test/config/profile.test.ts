/** The profile rules: which commands a hint names the profile in, and the unknown-profile error. */
import { describe, expect, it } from "vitest";
import { checkProfileKnown, withProfile } from "../../src/config/profile.js";
import { UsageError } from "../../src/core/errors.js";

describe("withProfile", () => {
  it("adds --profile to every pep auth and pep config command, not for the default profile", () => {
    const hint = "run `pep auth status` to check it, or `pep auth login`; then `pep config set base_url <url>`";
    expect(withProfile(hint, "default")).toBe(hint);
    expect(withProfile(hint, "work")).toBe(
      "run `pep --profile work auth status` to check it, or `pep --profile work auth login`; then `pep --profile work config set base_url <url>`",
    );
  });

  it("leaves commands about every profile, other commands and a named profile as written", () => {
    for (const text of [
      "`pep config path` prints where it is",
      "`pep config profiles` lists them",
      "try `pep --sandbox peptides list`",
      "`pep --profile other auth login`",
    ])
      expect(withProfile(text, "work")).toBe(text);
  });

  it("quotes a name the shell would split or expand", () => {
    expect(withProfile("`pep auth login`", "my work")).toBe("`pep --profile 'my work' auth login`");
    expect(withProfile("`pep auth login`", "it's")).toBe("`pep --profile 'it'\\''s' auth login`");
    expect(withProfile("`pep auth login`", "$(x)")).toBe("`pep --profile '$(x)' auth login`");
  });
});

describe("checkProfileKnown", () => {
  it("accepts default always and a stored name", () => {
    expect(() => checkProfileKnown("default", [], undefined)).not.toThrow();
    expect(() => checkProfileKnown("work", ["work"], "--profile")).not.toThrow();
  });

  it("refuses another name, listing the profiles and the nearest", () => {
    let err: unknown;
    try {
      checkProfileKnown("wrok", ["work", "ci"], "PEP_PROFILE");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('unknown profile "wrok" from PEP_PROFILE (profiles: default, work, ci)');
    expect((err as UsageError).hints[0]).toBe("Did you mean `work`? (`--profile work`)");
  });

  it("does not take an inherited name for a stored one", () => {
    expect(() => checkProfileKnown("constructor", [], "--profile")).toThrow(/unknown profile "constructor"/);
  });
});
