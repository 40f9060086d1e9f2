// The floor for a list command that loads what pep must load: the same one request as
// floor-list.cjs (GET <base>/peptides?limit=20 with the key, body printed), made with
// undici's Agent and request (the pair pep's bundle takes), the envelope checked with
// zod's mini API and the words parsed by commander. startup-floor.mjs bundles it into one
// CommonJS file, as pep's bundle is, and runs it with pep's code cache.
import Agent from "undici/lib/dispatcher/agent.js";
import requestOn from "undici/lib/api/api-request.js";
import * as z from "zod/mini";
import { Command } from "commander";

const program = new Command("floor-deps").argument("<base-url>").argument("<api-key>");
program.parse(process.argv);
const [base, key] = program.args;
const envelope = z.looseObject({
  data: z.unknown(),
  pagination: z.nullish(z.looseObject({ next_cursor: z.nullish(z.string()), has_more: z.optional(z.boolean()) })),
});
const dispatcher = new Agent();
const url = new URL(`${base}/peptides?limit=20`);
requestOn
  .call(dispatcher, {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: "GET",
    headers: { accept: "application/json", authorization: `Bearer ${key}` },
  })
  .then(async (res) => {
    const text = await res.body.text();
    if (res.statusCode !== 200) {
      process.stderr.write(`HTTP ${res.statusCode}\n`);
      process.exitCode = 1;
    }
    envelope.parse(JSON.parse(text));
    process.stdout.write(text);
    await dispatcher.close();
  });
