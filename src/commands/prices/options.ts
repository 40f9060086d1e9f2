/** Options of `pep prices` and `pep products`, each naming the parameter it fills. */
import { upperCode } from "../shared/codes.js";
import type { OptionDef } from "../types.js";

/** `--param key=value`: parameters the spec does not show; one a flag covers must use the flag. */
const PARAM: OptionDef = {
  flags: "--param <key=value>",
  description: "another query parameter the API accepts (repeatable); one a flag covers must use the flag",
  repeatable: true,
  pairs: true,
};

const COMMON: OptionDef[] = [
  { flags: "--peptide <peptide>", description: "peptide id, name or alias", param: "peptide" },
  { flags: "--form <form>", description: "product form, such as capsules or spray", param: "form" },
  { flags: "--currency <code>", description: "three-letter currency code, such as USD (case does not matter)", param: "currency", transform: upperCode },
];

export const PRICE_OPTIONS: readonly OptionDef[] = [
  ...COMMON,
  {
    flags: "--ships-to <code>",
    description: "destination: a two-letter country code, optionally with a subdivision (US, US-CA)",
    param: "ships_to",
    transform: upperCode,
  },
  PARAM,
];

export const PRODUCT_OPTIONS: readonly OptionDef[] = [...COMMON, PARAM];
