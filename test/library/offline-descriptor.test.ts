/**
 * What `--offline` answers is a fact of the endpoint descriptors: a copy of src/ gains two
 * descriptors in src/api/endpoints.ts and nothing else, one saying how the library answers
 * it (a list of stored studies, one filter reproduced) and one saying nothing. The copy's
 * offline client answers the first from a library and refuses what it does not say; the
 * command-line check keeps the flag that fills the answered parameter and refuses the
 * rest, and refuses the second endpoint's command outright. The library here is an
 * in-memory reader of the `LibraryReader` interface (the SQL reader is tested in
 * offline.test.ts), so this runs on every Node.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandDef } from "../../src/core/command.js";
import type { LibraryReader, StoredItem } from "../../src/offline/reader.js";
import { copySources, type SrcCopy } from "../helpers/src-copy.js";

const STUDIES = [
  { id: "pmid-90000003", title: "Newest", publication_year: 2024 },
  { id: "pmid-90000002", title: "Middle", publication_year: 2019 },
  { id: "pmid-90000001", title: "Oldest", publication_year: 2011 },
];

const DESCRIPTORS = `
  recentStudies: e("recentStudies", {
    path: "/studies/recent",
    scope: "studies:read",
    query: "studies",
    resource: "study",
    list: true,
    options: STUDY_FILTER_OPTIONS,
    fields: STUDY_FIELDS,
    offline: { list: "studies", params: { year_from: { kind: "at-least", path: ["publication_year"] } } },
  }),
  studyReviews: e("studyReviews", {
    path: "/studies/{id}/reviews",
    scope: "studies:read",
    query: "paged",
    resource: "study",
    list: true,
  }),
`;

/** A library holding STUDIES, synced once. */
function memoryLibrary(): LibraryReader {
  const stored: StoredItem[] = STUDIES.map((s, i) => ({ ord: i, text: JSON.stringify(s) }));
  return {
    where: "memory",
    lastSync: async () => ({ id: "sync-1", finishedAt: "2026-01-01T00:00:00Z", baseUrl: undefined, apiVersion: "1" }),
    walk: async (resource) =>
      resource === "studies" ? { syncId: 1, finishedAt: "2026-01-01T00:00:00Z", items: stored.length } : undefined,
    listMeta: async (resource) => (resource === "studies" ? { api_version: "1" } : undefined),
    items: async (resource, { after, limit }) =>
      resource === "studies" ? stored.filter((s) => s.ord > after).slice(0, limit) : [],
    item: async (resource, id) =>
      resource === "studies" ? stored.find((s) => JSON.parse(s.text).id === id) : undefined,
    study: async () => undefined,
    detail: async () => undefined,
    close: async () => {},
  };
}

let copy: SrcCopy;
let client: import("../../src/http/client-types.js").Client;
let refusals: typeof import("../../src/offline/refusals.js");
let studyOptions: typeof import("../../src/api/params/study-options.js");

beforeAll(async () => {
  copy = copySources("pep-offline-descriptor-");
  copy.replaceOnce(
    "src/api/endpoints.ts",
    "} as const satisfies Record<string, Endpoint>;",
    `${DESCRIPTORS}} as const satisfies Record<string, Endpoint>;`,
  );
  expect(copy.changedFiles()).toEqual(["src/api/endpoints.ts"]);
  const offline = await copy.load<typeof import("../../src/offline/offline-client.js")>(
    "src/offline/offline-client.ts",
  );
  client = offline.createOfflineClient(memoryLibrary());
  refusals = await copy.load("src/offline/refusals.ts");
  studyOptions = await copy.load("src/api/params/study-options.ts");
});

afterAll(() => copy?.cleanup());

/** A command of the copy that calls `endpoint` (an endpoint the project itself does not have). */
const commandOf = (endpoint: string, path: string[]): CommandDef =>
  ({ path, summary: "x", list: true, options: studyOptions.STUDY_FILTER_OPTIONS, calls: endpoint }) as never;

describe("an endpoint added to the descriptors, offline", () => {
  it("is answered from the library when its descriptor says how: its list, its one filter", async () => {
    const all = await client.request<Array<{ id: string }>>("/studies/recent");
    expect(all.data.map((s) => s.id)).toEqual(STUDIES.map((s) => s.id));
    const recent = await client.request<Array<{ id: string }>>("/studies/recent", { query: { year_from: 2015 } });
    expect(recent.data.map((s) => s.id)).toEqual(["pmid-90000003", "pmid-90000002"]);
  });

  it("refuses a parameter its descriptor does not answer, and the endpoint that says nothing", async () => {
    await expect(client.request("/studies/recent", { query: { search: "x" } })).rejects.toThrow(
      /cannot answer the search parameter of studies/,
    );
    await expect(client.request("/studies/pmid-90000001/reviews")).rejects.toThrow(
      /cannot answer GET \/studies\/pmid-90000001\/reviews/,
    );
  });

  it("the command line keeps the answered flag, refuses another, and refuses the other endpoint's command", () => {
    const recent = commandOf("recentStudies", ["studies", "recent"]);
    expect(refusals.servedOffline(recent)).toBe(true);
    expect(() => refusals.refuseOffline(recent, { yearFrom: "2015" }, {})).not.toThrow();
    expect(() => refusals.refuseOffline(recent, { search: "x" }, {})).toThrow(/--offline: --search/);
    const reviews = commandOf("studyReviews", ["studies", "reviews"]);
    expect(refusals.servedOffline(reviews)).toBe(false);
    expect(() => refusals.refuseOffline(reviews, {}, {})).toThrow(
      /--offline: pep studies reviews: the library cannot answer this command/,
    );
  });
});
