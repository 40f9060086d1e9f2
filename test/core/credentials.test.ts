/**
 * The one function that masks what pep prints or stores of a URL: every form a password
 * takes in a PostgreSQL or proxy URL (the user part, an unencoded `@` in it, `?password=`,
 * `?sslpassword=`, encoded names, libpq's keyword form) is hidden, a user name without a
 * password stays, and text without credentials is left exactly as it was.
 */
import { describe, expect, it } from "vitest";
import { hasUrlCredentials, hideUrlCredentials } from "../../src/core/credentials.js";

describe("hideUrlCredentials", () => {
  it.each([
    ["postgres://pep:hunter2@db.example/lib", "postgres://pep:***@db.example/lib"],
    ["postgres://pep:hun@ter2@db.example/lib", "postgres://pep:***@db.example/lib"],
    [
      "postgres://pep:a@b@c@db.example:5432/lib?sslmode=require",
      "postgres://pep:***@db.example:5432/lib?sslmode=require",
    ],
    ["postgres://pep@db.example/lib?password=hunter2", "postgres://pep@db.example/lib?password=***"],
    [
      "postgresql://db.example/lib?sslmode=require&PASSWORD=x&application_name=a",
      "postgresql://db.example/lib?sslmode=require&PASSWORD=***&application_name=a",
    ],
    ["postgres://db/lib?sslpassword=k3y&password=p", "postgres://db/lib?sslpassword=***&password=***"],
    ["postgres://db/lib?pass%77ord=p", "postgres://db/lib?pass%77ord=***"],
    ["http://alice:S3cret@proxy:3128", "http://alice:***@proxy:3128"],
    ['(got "postgres://pep:pa/ss@db.invalid/lib")', '(got "postgres://pep:***@db.invalid/lib")'],
    ["postgres://pep:1?x#y@db/lib", "postgres://pep:***@db/lib"],
    ["https://h/v1?api_key=sk_1&limit=2", "https://h/v1?api_key=***&limit=2"],
    ["host=db user=pep password=hunter2 dbname=lib", "host=db user=pep password=*** dbname=lib"],
    [
      "cannot connect to the PostgreSQL library at postgres://u:p@w@h/db: refused",
      "cannot connect to the PostgreSQL library at postgres://u:***@h/db: refused",
    ],
  ])("%s", (raw, shown) => {
    expect(hideUrlCredentials(raw)).toBe(shown);
    expect(hasUrlCredentials(raw)).toBe(true);
    expect(hideUrlCredentials(shown)).toBe(shown);
  });

  it.each([
    "postgres://pep@db.example/lib",
    "postgres://db.example/lib?sslmode=verify-full&password=",
    "https://api.example.org/v1/peptides?q=bpc&limit=2",
    "/home/me/library.sqlite",
    "write to user@example.org about it",
    "https://h/v1/x?email=a:b@example.org",
    // A message's `key=value` (the form a flag takes) is no credential outside a URL's query.
    '--param must be key=value (got "nothing")',
  ])("leaves %s as it is (a user name alone still connects)", (raw) => {
    expect(hideUrlCredentials(raw)).toBe(raw);
    expect(hasUrlCredentials(raw)).toBe(false);
  });
});
