/** Options of the config commands, apart from their definitions so that their code can type `opts` from them. */
import { options } from "../../api/options.js";

/** Options of `pep config profiles`. */
export const PROFILES_OPTIONS = options([
  { key: "delete", long: "delete", value: "name", description: "delete this profile and all it holds (its key too)" },
]);
