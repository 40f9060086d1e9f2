// Writes bench/RESULTS.md from the figures. Everything from the "## Changes" heading on
// is kept from the previous file: it is written by hand.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fmt, fmtRatio } from "./stats.mjs";

const CHANGES = "## Changes";

export function table(rows) {
  const lines = [
    "| # | Figure | Measured: median (min–max) | Against: median (min–max) | Ratio (IQR of per-run ratios) | Target | Met |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const met = r.met === null ? "—" : r.met ? "yes" : "**no**";
    const against = r.against ? fmt(r.against.sum, r.against.unit) : "—";
    lines.push(
      `| ${r.id} | ${r.figure} | ${fmt(r.measured.sum, r.measured.unit)} | ${against} | ${fmtRatio(r.ratio, r.pairs)} | ${r.target} | ${met} |`,
    );
  }
  return lines.join("\n");
}

function reading(rows, extra) {
  const by = Object.fromEntries(rows.map((r) => [r.id, r]));
  const x = (r) => `${r.ratio.toFixed(2)}x`;
  const ok = (r) => (r.met ? "within target" : "over target");
  const out = [];
  const s = ["1a", "1b", "1c"].map((id) => by[id]).filter(Boolean);
  if (s.length) {
    const extraMs = s
      .map((r) => `${r.figure.split("`")[1]} +${Math.round(r.measured.sum.median - r.against.sum.median)} ms`)
      .join(", ");
    out.push(
      `- Start-up over bare Node (${Math.round(s[0].against.sum.median)} ms): ${extraMs}. ` +
        s.map((r) => `${r.id} ${x(r)} ${ok(r)}`).join("; ") +
        ". The list command's cost is loading the HTTP client and the output layer plus one request to the local sandbox.",
    );
  }
  out.push(...floorReading(by, x, ok));
  if (by["2a"]) {
    out.push(
      `- Export: pep writes 10,000 studies at ${x(by["2a"])} the time of the bare undici loop (${ok(by["2a"])}); the difference is pep's start-up, envelope checks and rendering, spread over 100 pages.` +
        (by["2b"]
          ? ` The curl+jq loop takes ${x(by["2b"])} pep's time (${ok(by["2b"])}): it starts three processes per page.`
          : " The curl+jq row was skipped (see notes)."),
    );
  }
  if (by["3a"] && by["3b"]) {
    out.push(
      `- Memory: peak RSS is flat in the number of studies (CSV ${x(by["3a"])}, JSON ${x(by["3b"])} from 1,000 to 30,000), since pages stream to the output and are not kept; the base is the loaded code (Node, undici, zod, commander).`,
    );
  }
  if (by["4a"]) {
    out.push(
      `- Pacing: the last of ${extra.pacingPages} requests came ${fmt(by["4a"].measured.sum, "s")} after the first, against a minimum of ${extra.minimumS} s (${x(by["4a"])}, ${ok(by["4a"])}), with ${by["4b"].measured.sum.max} 429s at most. Whole command: ${fmt(extra.pacingWall, "s")}. The remainder is mostly the requests of the second window, which the minimum does not count.`,
    );
  }
  if (by["5a"]) {
    out.push(
      `- Revalidation: with the ETag cache a repeated list receives ${Math.round(by["5a"].measured.sum.median)} bytes (a 304) instead of ${Math.round(by["5a"].against.sum.median).toLocaleString("en-US")} (${x(by["5a"])}); time is ${x(by["5b"])} of \`--no-cache\`, since on loopback the body costs little and start-up dominates. The printed output is identical.`,
    );
  }
  return out.join("\n");
}

/** 1d–1i on each Node (startup-floor.mjs): the list command against its floors. */
function floorReading(by, x, ok) {
  const out = [];
  for (const suffix of ["", "-24"]) {
    const d = by[`1d${suffix}`];
    if (!d) continue;
    const node = d.figure.split(":")[0];
    const e = by[`1e${suffix}`];
    const f = by[`1f${suffix}`];
    const g = by[`1g${suffix}`];
    const h = by[`1h${suffix}`];
    const i = by[`1i${suffix}`];
    out.push(
      `- ${node}: a list run takes ${Math.round(d.measured.sum.median)} ms, ${x(d)} the node:http floor (${Math.round(d.against.sum.median)} ms${f ? `, itself ${x(f)} of \`node -e 0\`` : ""})` +
        (d.met === null ? "" : `, ${ok(d)}`) +
        (e ? `; against Python's urllib (${Math.round(e.against.sum.median)} ms) ${x(e)}, ${ok(e)}` : "") +
        (g
          ? `. Without its code caches (NODE_DISABLE_COMPILE_CACHE=1) it takes ${Math.round(g.measured.sum.median)} ms (${x(g)} of with it).`
          : ".") +
        (h
          ? ` A script that loads only undici, zod and commander and makes the same request, bundled and run with pep's code cache, takes ${Math.round(h.against.sum.median)} ms: pep is ${x(h)} of it${i ? `, and it is ${x(i)} of Python's` : ""}.`
          : ""),
    );
  }
  return out;
}

export function writeReport(file, { machine, commands, rows, notes, extra }) {
  const previous = existsSync(file) ? readFileSync(file, "utf8") : "";
  const at = previous.indexOf(`\n${CHANGES}`);
  const changes = at >= 0 ? previous.slice(at + 1).trimEnd() : `${CHANGES}\n\nNone yet.`;
  const text = [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (scripts/bench.mjs); everything above the Changes section is rewritten on each run.",
    "Times are wall clock from spawn to exit. The machine is shared and noisy, so compare the ratios, not the absolute times:",
    "every ratio sets pep against a baseline measured in the same run, interleaved with it.",
    "",
    "## Machine",
    "",
    ...machine.map((l) => `- ${l}`),
    "",
    "## Commands",
    "",
    "```sh",
    ...commands,
    "```",
    "",
    "## Figures",
    "",
    table(rows),
    "",
    ...notes.map((n) => `- ${n}`),
    "",
    "## Reading",
    "",
    reading(rows, extra),
    "",
    changes,
    "",
  ].join("\n");
  writeFileSync(file, text);
}
