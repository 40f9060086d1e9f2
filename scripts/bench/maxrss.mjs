// Runs bin/pep.js in this process and prints its peak resident set size on stderr as
// /usr/bin/time -v does, for machines without GNU time.
// Usage: node maxrss.mjs <path/to/bin/pep.js> <pep arguments...>
import { pathToFileURL } from "node:url";
import path from "node:path";

const [bin, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], path.resolve(bin), ...args];
process.on("exit", () => {
  process.stderr.write(`\tMaximum resident set size (kbytes): ${process.resourceUsage().maxRSS}\n`);
});
await import(pathToFileURL(path.resolve(bin)).href);
