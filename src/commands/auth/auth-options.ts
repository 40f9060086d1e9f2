/** Options of the auth commands, apart from their definitions so that their code can type `opts` from them. */
import { options } from "../../api/options.js";

/** Options of `pep auth login`. */
export const LOGIN_OPTIONS = options([
  { key: "withKey", long: "with-key", description: "read the key from standard input instead of a prompt" },
]);
