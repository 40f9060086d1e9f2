import { describe, expect, it } from "vitest";
import { checkStoredProfile, checkBaseUrl, parseConfigValue } from "../../src/config/config-values.js";
import { ConfigError, UsageError } from "../../src/core/errors.js";

describe("config values", () => {
  it("accepts an http(s) base URL ending in a version segment, without the trailing slash", () => {
    expect(checkBaseUrl("https://api.example.org/v1/", "base_url")).toBe("https://api.example.org/v1");
    expect(checkBaseUrl("http://127.0.0.1:4010/v1", "base_url")).toBe("http://127.0.0.1:4010/v1");
  });

  it.each([
    ["ftp://api.example.org/v1", /http\(s\)/],
    ["api.example.org/v1", /http\(s\) URL/],
    ["https://api.example.org", /version segment/],
    ["https://api.example.org/v1?api_key=x", /query or fragment/],
    ["https://user:pw@api.example.org/v1", /user name or password/],
  ])("refuses the base URL %s", (raw, message) => {
    expect(() => checkBaseUrl(raw, "base_url")).toThrow(message);
  });

  it("warns against a key in the base URL's query", () => {
    try {
      checkBaseUrl("https://api.example.org/v1?key=sk_123", "base_url");
      expect.unreachable();
    } catch (e) {
      expect((e as UsageError).message).toMatch(/never put a key in a URL/);
      expect((e as UsageError).hints.join(" ")).toMatch(/pep auth login.*--api-key-file.*PEP_API_KEY/);
    }
  });

  it.each([
    ["timeout", "0.5", 0.5],
    ["timeout", "3600", 3600],
    ["retries", "0", 0],
    ["retries", "10", 10],
    ["cache", "off", false],
    ["cache", "TRUE", true],
    ["auth_header", "X-API-Key", "x-api-key"],
    ["output", "csl-json", "csl-json"],
  ] as const)("parses %s=%s", (key, raw, value) => {
    expect(parseConfigValue(key, raw, key)).toBe(value);
  });

  it.each([
    ["timeout", "-1"],
    ["timeout", "0"],
    ["timeout", ""],
    ["timeout", "abc"],
    ["retries", "11"],
    ["retries", "-1"],
    ["retries", "1.5"],
    ["output", "yaml"],
    ["auth_header", "basic"],
    ["cache", "maybe"],
    ["api_key", "two words"],
  ] as const)("refuses %s=%s saying what the key accepts", (key, raw) => {
    expect(() => parseConfigValue(key, raw, key)).toThrow(UsageError);
    expect(() => parseConfigValue(key, raw, key)).toThrow(new RegExp(`^${key} must`));
  });

  it("turns a bad stored value into a ConfigError naming the file", () => {
    expect(() => checkStoredProfile({ timeout: -5 }, "default", "/cfg/config.json")).toThrow(ConfigError);
    expect(() => checkStoredProfile({ timeout: -5 }, "default", "/cfg/config.json")).toThrow("/cfg/config.json");
    expect(() => checkStoredProfile({ output: { a: 1 } }, "p", "/f")).toThrow(/p\.output/);
    expect(() => checkStoredProfile("text", "p", "/f")).toThrow(/profile "p" is not an object/);
    expect(checkStoredProfile({ unknown_key: 1, retries: 2 }, "p", "/f")).toEqual({ retries: 2 });
  });
});
