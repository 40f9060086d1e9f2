/** Options of `pep api`, apart from its definition so that its code can type `opts` from them. */
import { options } from "../../api/options.js";

/** Options of `pep api`. */
export const API_OPTIONS = options([
  {
    key: "field",
    long: "field",
    short: "F",
    value: "key=value",
    description: "query parameter (repeatable)",
    repeatable: true,
  },
  {
    key: "paginate",
    long: "paginate",
    description: "follow pagination.next_cursor and print every page's data items as NDJSON",
  },
]);
