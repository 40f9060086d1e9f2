import { describe, expect, it } from "vitest";
import { ENDPOINTS, type Endpoint } from "../../src/api/endpoints.js";
import { PRICE_OPTIONS, PRODUCT_OPTIONS } from "../../src/api/params/price-options.js";
import { listQuery, pagingFrom } from "../../src/commands/shared/list.js";
import { extraParams, splitPair } from "../../src/api/pairs.js";
import type { Context } from "../../src/cli/run-context.js";
import { UsageError } from "../../src/core/errors.js";

/** The query `pep prices` (with --ships-to) or `pep products` builds from these options. */
function offerQuery(endpoint: Endpoint, opts: Record<string, unknown>, withShipsTo: boolean) {
  const ctx = { fields: undefined } as unknown as Context;
  return listQuery(
    ctx,
    endpoint,
    opts,
    withShipsTo ? PRICE_OPTIONS : PRODUCT_OPTIONS,
    pagingFrom({}, ENDPOINTS.studies),
    false,
  ).query;
}

describe("--param key=value", () => {
  it("splits at the first = and keeps the rest of the value", () => {
    expect(splitPair("q=a=b", "--param")).toEqual(["q", "a=b"]);
    expect(extraParams(["in_stock=true", "vendor=acme"], {})).toEqual({ in_stock: "true", vendor: "acme" });
    expect(extraParams(undefined, {})).toEqual({});
  });

  it.each([
    ["novalue", /--param must be key=value/],
    ["=x", /--param must be key=value/],
    ["bad name=x", /a parameter name holds/],
    ["x=", /needs a value/],
    ["api_key=sk_1", /would put an API key in the URL/],
    ["token=t", /would put an API key in the URL/],
  ])("refuses %j", (raw, message) => {
    expect(() => extraParams([raw], {})).toThrow(UsageError);
    expect(() => extraParams([raw], {})).toThrow(message);
  });

  it("refuses a parameter a flag covers, naming the flag", () => {
    expect(() => extraParams(["peptide=bpc"], { peptide: "--peptide" })).toThrow(
      "--param peptide=… is covered by --peptide: use --peptide instead",
    );
  });

  it("refuses the same name twice", () => {
    expect(() => extraParams(["a=1", "a=2"], {})).toThrow(/given twice/);
  });
});

describe("offer and product queries", () => {
  it("upper-cases currency and destination and passes unknown parameters through", () => {
    const q = offerQuery(
      ENDPOINTS.prices,
      { peptide: "bpc-157", currency: "usd", shipsTo: "us-ca", param: ["in_stock=true"] },
      true,
    );
    expect(q).toEqual({ peptide: "bpc-157", currency: "USD", ships_to: "US-CA", in_stock: "true" });
  });

  it.each([
    [{ currency: "dollars" }, /--currency must be a three-letter currency code/],
    [{ shipsTo: "USA-CALI" }, /--ships-to must be a two-letter country code/],
    [{ param: ["ships_to=US"] }, /use --ships-to/],
    [{ param: ["limit=5"] }, /use --limit/],
    [{ param: ["cursor=abc"] }, /use --cursor/],
    [{ peptide: "" }, /--peptide must not be empty/],
  ])("refuses %j for prices", (opts, message) => {
    expect(() => offerQuery(ENDPOINTS.prices, opts, true)).toThrow(message);
  });

  it("lets products take ships_to through --param, having no flag for it", () => {
    expect(offerQuery(ENDPOINTS.products, { param: ["ships_to=US"] }, false)).toEqual({ ships_to: "US" });
  });
});
