/**
 * Colour and hyperlinks for the human formats, decided once per run from the options
 * (never from chalk's own terminal detection, which looks at the process).
 */
import { Chalk } from "chalk";
import { safeLinkTarget } from "../core/sanitize.js";

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  /** Section titles in cards. */
  heading(text: string): string;
  /** `text` as an OSC 8 hyperlink to `url` when links are on and the URL is safe; else `text`. */
  link(text: string, url: unknown): string;
  /** Whether `link()` would make a link for this URL. */
  canLink(url: unknown): boolean;
}

export function makeStyle(options: { color: boolean; hyperlinks: boolean }): Style {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const canLink = (url: unknown) => options.hyperlinks && safeLinkTarget(url) !== undefined;
  return {
    bold: (t) => (t === "" ? t : chalk.bold(t)),
    dim: (t) => (t === "" ? t : chalk.dim(t)),
    heading: (t) => (t === "" ? t : chalk.bold.underline(t)),
    canLink,
    link(text, url) {
      const target = options.hyperlinks ? safeLinkTarget(url) : undefined;
      if (!target || text === "") return text;
      return `\x1b]8;;${target}\x1b\\${text}\x1b]8;;\x1b\\`;
    },
  };
}
