/**
 * The parts of every man page that come from the command line's promises rather than
 * from a command definition: exit codes (docs/cli.md#exit-codes), environment
 * (docs/cli.md#global-options) and files (docs/cli.md#files).
 * The codes are the `EXIT` values of `errors.ts`, so a changed code changes the pages.
 */
import { EXIT } from "../core/errors.js";

export const EXIT_STATUS: readonly { code: number; text: string }[] = [
  { code: EXIT.ok, text: "Success, also when a `304 Not Modified` was answered from the cache." },
  {
    code: EXIT.unexpected,
    text: "Unexpected failure: a bug in pep (please report it with the command you ran), or the output could not be written (a full disk).",
  },
  {
    code: EXIT.usage,
    text: "Usage error or invalid input, caught before any request is sent, or an HTTP 400 from the API.",
  },
  {
    code: EXIT.auth,
    text: "HTTP 401 or 403, or no key for an endpoint that needs one (caught before any request; run `pep auth login`).",
  },
  { code: EXIT.notFound, text: "HTTP 404: unknown peptide, study or vendor." },
  { code: EXIT.rateLimited, text: "HTTP 429 still after the retries." },
  {
    code: EXIT.unavailable,
    text: "HTTP 503 or another 5xx, a timeout, a refused or reset connection, a body that is not the API's JSON, or a cursor seen twice.",
  },
  {
    code: EXIT.interrupted,
    text: "Interrupted (Ctrl-C); a `--file` target is left untouched. Other signals that end a run clean up alike and exit 128 + their number: 129 SIGHUP, 131 SIGQUIT, 143 SIGTERM.",
  },
];

export const ENVIRONMENT: readonly { name: string; text: string }[] = [
  {
    name: "PEP_BASE_URL",
    text: "API base URL, ending in `/v1` (as `--base-url`). There is no built-in production host.",
  },
  {
    name: "PEP_API_KEY",
    text: "API key for keyed endpoints. `--api-key-file` wins over it; it wins over the profile's `api_key`.",
  },
  { name: "PEP_AUTH_HEADER", text: "How the key is sent: `bearer` (default) or `x-api-key`." },
  {
    name: "PEP_PROFILE",
    text: "Profile of the config file to use (as `--profile`; default `default`). A name that is neither `default` nor stored exits 2, except for `config set` and `auth login`, which make it.",
  },
  { name: "PEP_OUTPUT", text: "Default output format (as `-o`)." },
  { name: "PEP_TIMEOUT", text: "Per-request timeout in seconds (as `--timeout`; default 30)." },
  { name: "PEP_RETRIES", text: "Retries of 429, 5xx and network errors (as `--retries`; default 3)." },
  {
    name: "PEP_RESUME_MAX_AGE",
    text: "With `--file`: the oldest partial a cut-short export may be continued from (as `--resume-max-age`; default 24h). Also the oldest cut-short walk `pep sync` goes on from.",
  },
  {
    name: "PEP_NO_CACHE",
    text: "Set to 1 (or true, yes, on) to skip the ETag cache (as `--no-cache`); 0, false, no, off or empty leave it on; any other word is refused (exit 2).",
  },
  {
    name: "HTTPS_PROXY, https_proxy",
    text: "Proxy for https URLs (the lower-case name first, as curl reads it); requests go through a CONNECT tunnel, so the proxy never sees the key. `--proxy` and the profile's `proxy` key override it.",
  },
  {
    name: "HTTP_PROXY, http_proxy",
    text: "Proxy for http URLs; the key is never sent over plain http through a proxy.",
  },
  {
    name: "NO_PROXY, no_proxy",
    text: "Hosts reached directly, read as curl reads the list: `*`, host names (with every name under them, in any case), `.domain`, IP addresses (that address only, never a suffix) and CIDR ranges (`127.0.0.0/8`, `fe80::/10`), each with an optional `:port`. Loopback is not bypassed on its own: add `localhost,127.0.0.1,::1` to reach a local server while a proxy is set.",
  },
  {
    name: "NODE_EXTRA_CA_CERTS",
    text: "A PEM file of extra certificate authorities to trust, for an API or proxy behind a private CA.",
  },
  {
    name: "PEP_SANDBOX",
    text: "Set to 1 (or true, yes, on) to run every command against an in-process sandbox (as `--sandbox`); 0, false, no, off or empty leave it off; any other word is refused (exit 2). Its synthetic-data notice is printed even with `-q`, and citations from it carry a note that they are synthetic.",
  },
  {
    name: "PEP_OFFLINE",
    text: "Set to 1 (or true, yes, on) to answer list and get commands from the local library (as `--offline`); 0, false, no, off leave it off and override the profile's `offline`; empty or unset leave the profile to decide; any other word is refused (exit 2).",
  },
  {
    name: "PEP_MCP_MAX_WAIT",
    text: "pep mcp: the longest a tool call waits for retries and rate limits, in seconds, 1 to 55 (as `--max-wait`; default 30); a value outside is held at the nearer bound, one that is not a number leaves the default, and the server says so in its instructions.",
  },
  {
    name: "PEP_MCP_LIBRARY_POLL",
    text: "pep mcp, with the library's tools served (offline, or `--tools library`): seconds between its looks at the library's sync records, 0.05 to 3600 (default 10), to tell subscribed sessions what a sync in another process changed; any other value leaves the default.",
  },
  {
    name: "PEP_MCP_MAX_SESSIONS",
    text: "pep mcp --http: most sessions at once (as `--max-sessions`; default 64).",
  },
  {
    name: "PEP_MCP_SESSION_IDLE",
    text: "pep mcp --http: seconds of no request and no open stream after which a session is closed (as `--session-idle`; default 300).",
  },
  {
    name: "PEP_MCP_TOKEN",
    text: "pep mcp --http: the bearer token every request must carry, at least 32 characters; when neither it nor PEP_MCP_TOKEN_FILE is set, one is made at start and shown once on standard error.",
  },
  {
    name: "PEP_MCP_TOKEN_FILE",
    text: "pep mcp --http: a file whose first line is the bearer token (instead of PEP_MCP_TOKEN); it must be a plain file of yours that no one else can read or write, in a folder others cannot change.",
  },
  {
    name: "PEP_MCP_TOOLS",
    text: "pep mcp: the tool groups to serve, comma-separated: research, studies, vendors, prices (as `--tools`); a word that names no group is left out and said in the server's instructions.",
  },
  {
    name: "PEP_PAGER",
    text: "Pager for long output on a terminal, before the profile's `pager` and `PAGER`; `cat` or empty for none (as `--no-pager`). Default `less -FRX` when installed. Quitting the pager ends the run (exit 0).",
  },
  { name: "PAGER", text: "Pager when neither `PEP_PAGER` nor the profile's `pager` is set." },
  {
    name: "PEP_BROWSER",
    text: "pep browse and --web: the command that opens a page, before `BROWSER`; `%s` stands for the address, else it is added last. Run without a shell.",
  },
  {
    name: "BROWSER",
    text: "The command that opens a page when `PEP_BROWSER` is not set; else `xdg-open` (with a display), `open` on macOS, `rundll32` on Windows.",
  },
  { name: "PEP_CONFIG_DIR", text: "Folder of the config file, instead of the XDG config folder." },
  { name: "PEP_CACHE_DIR", text: "Folder of the ETag cache, instead of the XDG cache folder." },
  {
    name: "PEP_CACHE_MAX_MB",
    text: "Megabytes the ETag cache folder may hold (as the profile key `cache_max_mb`; default 50); past that the least recently used entries go first.",
  },
  {
    name: "PEP_DB",
    text: "Where the local library lives (as `--db` and the profile key `db`): a SQLite file path, or a postgres:// URL.",
  },
  { name: "PEP_DATA_DIR", text: "Folder of the local library's SQLite files, instead of the XDG data folder." },
  { name: "XDG_DATA_HOME", text: "Base of the data folder (default `~/.local/share`)." },
  { name: "XDG_CONFIG_HOME", text: "Base of the config folder (default `~/.config`)." },
  { name: "XDG_CACHE_HOME", text: "Base of the cache folder (default `~/.cache`)." },
  {
    name: "NODE_DISABLE_COMPILE_CACHE",
    text: "When set, both caches of compiled code stay off: pep's code cache and Node's module compile cache (see FILES).",
  },
  {
    name: "NODE_COMPILE_CACHE",
    text: "Folder of Node's module compile cache, instead of pep's (Node's own setting); Node then caches all of pep's code there, and pep keeps no code cache of its own.",
  },
  {
    name: "NODE_DEBUG",
    text: "With `pep` in its list, each file of pep's bundle says on stderr whether its code cache was accepted, rejected or missing, and which the run saved.",
  },
  { name: "NO_COLOR", text: "When set and not empty, no colour (as `--no-color`), the spinner's included." },
  {
    name: "PEP_HYPERLINKS",
    text: "`1` or `0`: OSC 8 hyperlinks on a terminal, or none, whatever the terminal. Without it pep links names to their pages only where the terminal is known to render links (as the supports-hyperlinks package decides; `FORCE_HYPERLINK` too); a card shows the address as text either way.",
  },
  {
    name: "TERM",
    text: "`dumb`: no colour, no pager (unless `PEP_PAGER` names one), and progress as plain lines (at most one every five seconds) instead of a spinner; waits are told as notice lines.",
  },
  {
    name: "CI",
    text: "When set (and not `false` or `0`), progress on a terminal is plain lines, as under `TERM=dumb`: a CI log keeps every frame of a spinner.",
  },
  { name: "FORCE_COLOR", text: "Colour even when the output is not a terminal; `0` or `false` turns colour off." },
];

export const FILES: readonly { path: string; text: string }[] = [
  {
    path: "$PEP_CONFIG_DIR/config.json",
    text: "The config file, with named profiles (`pep config path` prints it). Without `PEP_CONFIG_DIR`: `$XDG_CONFIG_HOME/pep/config.json`, else `~/.config/pep/config.json`. It may hold a key, so it is kept at mode 0600; pep creates its folder at 0700, and a folder that already exists (`PEP_CONFIG_DIR` at a shared or project folder) keeps its mode. As ssh does, pep refuses a config file that group or others can write, in a folder they can write without the sticky bit, or that belongs to another user than you or root (exit 2, naming the `chmod` to run): whoever can change it can point `base_url` elsewhere and collect the key.",
  },
  {
    path: "$PEP_CACHE_DIR/",
    text: "The ETag cache: responses stored by base URL, path, query and key fingerprint. Without `PEP_CACHE_DIR`: `$XDG_CACHE_HOME/pep`, else `~/.cache/pep`. Safe to delete.",
  },
  {
    path: "$PEP_DATA_DIR/library/<profile>.sqlite",
    text: "The local library of a profile (pep sync, sql, changes), a SQLite file any SQLite reader opens; `<file>.lock` beside it while a sync runs. Without `PEP_DATA_DIR`: `$XDG_DATA_HOME/pep`, else `~/.local/share/pep`. pep makes the folder at 0700 and the file at 0600, and refuses one that is a symbolic link, another user's, or writable by others (exit 2). `pep sql --tables` and `pep sql --schema <table>` describe its tables.",
  },
  {
    path: "$PEP_CACHE_DIR/code-cache/",
    text: "pep's code as V8 compiled it, taken at the end of a run so that it holds every function the run compiled; the next run reads it instead of compiling again. One folder per Node version and build of pep; a new build removes the old build's folder. A folder that cannot be written only costs that speed-up. Safe to delete.",
  },
  {
    path: "$PEP_CACHE_DIR/node-compile-cache/",
    text: "On Node 22.1 and later, Node's module compile cache for the code that lies outside pep's bundle (jq-wasm), one folder per Node version. Safe to delete.",
  },
];

/** How `-o bibtex`, `-o ris` and `-o csl-json` write a study (src/output/citation/). */
export const CITATIONS: readonly { topic: string; text: string }[] = [
  {
    topic: "Capitals",
    text: "BibTeX titles brace whole the words whose case a style must not change, as Zotero and Better BibTeX do: words with a capital after the first letter of one of their hyphen-joined parts (`mRNA`, `GLP-1`), words with a digit and a letter (`{Lunplexin-19}`), all-caps acronyms and a lone capital inside a sentence (`vitamin {D}`), the peptides the study is cited by (`cited_by`) and the capitalised words of its journal's name. In a sentence-case title (at least half of its ordinary words after the first start in lower case) every other capitalised word after the first is a proper name and is braced too; a Title Case or all-caps title gets only the rules before. The first word, and the first after a colon, keep their capital in every style and are not braced.",
  },
  {
    topic: "Braces and specials",
    text: "Every brace in a BibTeX entry is one pep wrote and closed: a `{` or `}` in the API's text becomes `\\textbraceleft{}` or `\\textbraceright{}`, a backslash `\\textbackslash{}`, `~` and `^` `\\textasciitilde{}` and `\\textasciicircum{}`, and `& % $ # _` get a backslash. An unbalanced title cannot swallow the next entry, and a braced word never starts with a backslash (which BibTeX would read as an accent). DOI and URL are verbatim fields: only braces, backslashes and white space are percent-encoded.",
  },
  {
    topic: "Organisations",
    text: 'An author without a comma is an organisation when it holds a word naming a body (Group, Organization, Consortium, Committee, Agency, Society, Collaboration, Institute, Association, Council, Foundation, Network, Centre, Department, University and the like) or an `&`, or has more than three words one of which is a lower-case joining word that is not a name particle (`Centers for Disease Control and Prevention`). It is written `{World Health Organization}` in BibTeX (one author), `{"literal": …}` in CSL-JSON and unsplit in RIS. `Smith J`, `van der Berg, A.`, `Jean-Luc Picard` and `María José Sánchez López` stay people.',
  },
];
