/**
 * A key read from `--api-key-file <path|->` (and `auth login --with-key`): a file, or
 * standard input, bounded in size and checked to hold one key.
 */
import { closeSync, fstatSync, readSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import { currentUid, octalMode } from "../core/owner.js";
import { distrustedFolder, openPlain } from "../core/trusted-file.js";

/**
 * The most a key file (or a key on stdin) may hold: a key is tens of characters, so a
 * few KiB leave room for a trailing newline or comment, while `/dev/zero`, `/dev/urandom`
 * or a wrong file is refused at once instead of read into memory without end.
 */
export const KEY_FILE_MAX_BYTES = 4096;

/**
 * Why a secret's file (`fd`, open) is not private to the user, if it is not: another
 * user's, or readable or writable by group or others, or in a folder others may change.
 * The rule the config file follows (core/owner.ts), stricter in that no one else may
 * read it either: whoever reads the token holds every tool with the user's key.
 */
function notPrivate(fd: number, file: string): string | undefined {
  const uid = currentUid();
  if (uid === undefined) return undefined;
  const st = fstatSync(fd);
  if (st.uid !== uid && st.uid !== 0) return `it belongs to uid ${st.uid}, not to you (uid ${uid})`;
  if ((st.mode & 0o066) !== 0) return `others can read or write it (mode ${octalMode(st.mode)})`;
  return distrustedFolder(path.dirname(file));
}

/** Reads at most `max + 1` bytes of `file` (enough to tell it is too big); `secret`: only a file private to the user. */
function readHead(file: string, max: number, label: string, secret: boolean): Buffer {
  const fd = openPlain(
    file,
    (kind) =>
      new UsageError(`${label}: ${file} is ${kind}, not a file that holds a key`, {
        hints: ["give a plain file, or - to read the key from standard input (--api-key-file - < file)"],
      }),
  );
  try {
    const why = secret ? notPrivate(fd, file) : undefined;
    if (why !== undefined)
      throw new UsageError(`${label}: ${file} is not used: ${why}`, {
        hints: [`make it yours and private (chmod 600 ${file}) in a folder only you can change, or choose another`],
      });
    const buf = Buffer.alloc(max + 1);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** Reads stdin until its end or past `max` bytes, whichever comes first. */
async function readStdinHead(stdin: NodeJS.ReadableStream, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const c of stdin) {
    const b = typeof c === "string" ? Buffer.from(c) : (c as Buffer);
    chunks.push(b);
    got += b.length;
    if (got > max) break; // leaving the loop stops reading stdin
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a key from `--api-key-file <path|->`: the file's first non-empty line, or stdin
 * when `-`. `label` names the flag in messages (`--with-key` for `pep auth login`);
 * `secret`: the file must be private to the user (PEP_MCP_TOKEN_FILE), as `notPrivate` says.
 */
export async function readKeyFile(
  spec: string,
  stdin: NodeJS.ReadableStream,
  cwd: string,
  label = "--api-key-file",
  secret = false,
): Promise<string> {
  let bytes: Buffer;
  const source = spec === "-" ? "standard input" : spec;
  if (spec === "-") {
    bytes = await readStdinHead(stdin, KEY_FILE_MAX_BYTES);
  } else {
    const file = path.resolve(cwd, spec);
    try {
      bytes = readHead(file, KEY_FILE_MAX_BYTES, label, secret);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(`${label}: cannot read ${file}${code ? ` (${code})` : ""}`);
    }
  }
  if (bytes.length > KEY_FILE_MAX_BYTES) {
    throw new UsageError(
      `${label}: ${source} holds more than ${KEY_FILE_MAX_BYTES / 1024} KiB; a key file holds one key (a line of tens of characters)`,
    );
  }
  const text = bytes.toString("utf8");
  const key = (text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "").trim();
  if (key === "") throw new UsageError(`${label}: ${source} holds no key`);
  if (/\s/.test(key)) throw new UsageError(`${label}: the key must be one word without spaces`);
  // A key is text: control characters (a binary file, a wrong path) are not sent as a header.
  if (/[\x00-\x1f\x7f]/.test(key))
    throw new UsageError(`${label}: ${source} does not hold a key (it has control characters)`);
  return key;
}
