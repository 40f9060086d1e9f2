/**
 * The parts of every man page that come from the contract rather than from a command
 * definition: exit codes (contract section 5), environment (section 1) and files.
 * The codes are the `EXIT` values of `errors.ts`, so a changed code changes the pages.
 */
import { EXIT } from "../errors.js";

export const EXIT_STATUS: readonly { code: number; text: string }[] = [
  { code: EXIT.ok, text: "Success, also when a `304 Not Modified` was answered from the cache." },
  { code: EXIT.unexpected, text: "Unexpected failure: a bug in pep (please report it with the command you ran), or the output could not be written (a full disk)." },
  { code: EXIT.usage, text: "Usage error or invalid input, caught before any request is sent, or an HTTP 400 from the API." },
  { code: EXIT.auth, text: "HTTP 401 or 403, or no key for an endpoint that needs one (caught before any request; run `pep auth login`)." },
  { code: EXIT.notFound, text: "HTTP 404: unknown peptide, study or vendor." },
  { code: EXIT.rateLimited, text: "HTTP 429 still after the retries." },
  { code: EXIT.unavailable, text: "HTTP 503 or another 5xx, a timeout, a refused or reset connection, a body that is not the API's JSON, or a cursor seen twice." },
  { code: EXIT.interrupted, text: "Interrupted (Ctrl-C); a `--file` target is left untouched." },
];

export const ENVIRONMENT: readonly { name: string; text: string }[] = [
  { name: "PEP_BASE_URL", text: "API base URL, ending in `/v1` (as `--base-url`). There is no built-in production host." },
  { name: "PEP_API_KEY", text: "API key for keyed endpoints. `--api-key-file` wins over it; it wins over the profile's `api_key`." },
  { name: "PEP_AUTH_HEADER", text: "How the key is sent: `bearer` (default) or `x-api-key`." },
  { name: "PEP_PROFILE", text: "Profile of the config file to use (as `--profile`; default `default`)." },
  { name: "PEP_OUTPUT", text: "Default output format (as `-o`)." },
  { name: "PEP_TIMEOUT", text: "Per-request timeout in seconds (as `--timeout`; default 30)." },
  { name: "PEP_RETRIES", text: "Retries of 429, 5xx and network errors (as `--retries`; default 3)." },
  { name: "PEP_NO_CACHE", text: "Set to 1 to skip the ETag cache (as `--no-cache`)." },
  { name: "PEP_SANDBOX", text: "Set to 1 to run every command against an in-process sandbox (as `--sandbox`)." },
  { name: "PEP_PAGER", text: "Pager for long output on a terminal, before the profile's `pager` and `PAGER`; `cat` or empty for none (as `--no-pager`). Default `less -FRX` when installed. Quitting the pager ends the run (exit 0)." },
  { name: "PAGER", text: "Pager when neither `PEP_PAGER` nor the profile's `pager` is set." },
  { name: "PEP_CONFIG_DIR", text: "Folder of the config file, instead of the XDG config folder." },
  { name: "PEP_CACHE_DIR", text: "Folder of the ETag cache, instead of the XDG cache folder." },
  { name: "XDG_CONFIG_HOME", text: "Base of the config folder (default `~/.config`)." },
  { name: "XDG_CACHE_HOME", text: "Base of the cache folder (default `~/.cache`)." },
  { name: "NO_COLOR", text: "When set and not empty, no colour (as `--no-color`), the spinner's included." },
  { name: "TERM", text: "`dumb`: no colour and no spinner; waits are told as notice lines." },
  { name: "FORCE_COLOR", text: "Colour even when the output is not a terminal; `0` or `false` turns colour off." },
];

export const FILES: readonly { path: string; text: string }[] = [
  {
    path: "$PEP_CONFIG_DIR/config.json",
    text: "The config file, with named profiles (`pep config path` prints it). Without `PEP_CONFIG_DIR`: `$XDG_CONFIG_HOME/pep/config.json`, else `~/.config/pep/config.json`. It may hold a key, so it is kept at mode 0600 in a folder at 0700.",
  },
  {
    path: "$PEP_CACHE_DIR/",
    text: "The ETag cache: responses stored by base URL, path, query and key fingerprint. Without `PEP_CACHE_DIR`: `$XDG_CACHE_HOME/pep`, else `~/.cache/pep`. Safe to delete.",
  },
];

