/** Reading the examples of help and man pages as commands. */

/** The words of the first `pep …` command in an example line, up to a pipe, redirection or `)`. */
export function pepWords(example: string): string[] | undefined {
  const line = example.replace(/\s+#\s.*$/, "");
  const start = /(?:^|[\s("'|;&])pep(?=\s|$)/.exec(line);
  if (!start) return undefined;
  const words: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (const ch of line.slice(start.index + start[0].length)) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (/\s/.test(ch)) {
      if (current !== "") words.push(current);
      current = "";
    } else if ("|;&<>()".includes(ch)) break;
    else current += ch;
  }
  if (current !== "" && !quote) words.push(current);
  return words;
}
