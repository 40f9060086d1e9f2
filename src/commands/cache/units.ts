/** Sizes as people read them: `0 MB`, `0.4 MB`, `11.2 MB`, `50 MB` (1 MB = 1,048,576 bytes, as du -h counts). */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  const shown = mb === 0 || mb >= 10 ? Math.round(mb * 10) / 10 : Math.max(0.1, Math.round(mb * 10) / 10);
  return `${Number.isInteger(shown) ? shown : shown.toFixed(1)} MB`;
}
