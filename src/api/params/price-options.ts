/** Options of `pep prices` and `pep products`, each naming the parameter it fills. */
import { upperCode } from "./codes.js";
import { option, options } from "../options.js";

/** `--param key=value`: parameters the spec does not show; one a flag covers must use the flag. */
const PARAM = option({
  key: "param",
  long: "param",
  value: "key=value",
  description: "another query parameter the API accepts (repeatable); one a flag covers must use the flag",
  repeatable: true,
  pairs: true,
});

const COMMON = options([
  { key: "peptide", long: "peptide", value: "peptide", description: "peptide id, name or alias", param: "peptide" },
  { key: "form", long: "form", value: "form", description: "product form, such as capsules or spray", param: "form" },
  {
    key: "currency",
    long: "currency",
    value: "code",
    description: "three-letter currency code, such as USD (case does not matter)",
    param: "currency",
    transform: upperCode,
  },
]);

export const PRICE_OPTIONS = options([
  ...COMMON,
  {
    key: "shipsTo",
    long: "ships-to",
    value: "code",
    description: "destination: a two-letter country code, optionally with a subdivision (US, US-CA)",
    param: "ships_to",
    transform: upperCode,
  },
  PARAM,
]);

export const PRODUCT_OPTIONS = options([...COMMON, PARAM]);
