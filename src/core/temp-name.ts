/**
 * The unique part of a temp file's name (`<pid>-<random>`), for files created beside
 * their target and renamed over it. Uniqueness, not secrecy, is what a temp name needs:
 * every such file is created with O_EXCL (flag "wx"), so a name that exists already
 * fails the write instead of opening someone else's file. Math.random keeps node:crypto
 * (about 6 ms of built-in modules to load) off the runs that write the ETag cache.
 */
let made = 0;

export function tempSuffix(): string {
  made += 1;
  const random = Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, "0");
  return `${process.pid.toString(36)}-${made.toString(36)}${random}`;
}
