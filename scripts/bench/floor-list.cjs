// The floor for a one-request list command: the request `pep peptides list -o json` makes
// (GET <base>/peptides?limit=20 with the key), made with node:http alone, its body printed.
// CommonJS, like bin/pep.js, as that is the cheapest entry Node has. Used by startup.mjs.
//   node scripts/bench/floor-list.cjs <base-url> <api-key>
"use strict";
const http = require("node:http");

const [base, key] = process.argv.slice(2);
http
  .get(
    `${base}/peptides?limit=20`,
    { headers: { accept: "application/json", authorization: `Bearer ${key}` } },
    (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        if (res.statusCode !== 200) {
          process.stderr.write(`HTTP ${res.statusCode}\n`);
          process.exitCode = 1;
        }
        process.stdout.write(Buffer.concat(chunks));
      });
    },
  )
  .on("error", (err) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  });
