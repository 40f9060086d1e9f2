/** What a card is told: its layout per resource (title, overview, sections) and its options. */
import type { Style } from "./style.js";

export interface SectionSpec {
  title: string;
  /** Paths shown in this section, in order; those absent are skipped. */
  keys: string[];
  /** A lone text in it is printed as a paragraph, without its label (a summary). */
  paragraph?: boolean;
}

export interface CardLayout {
  /** Paths that may hold the card's title, first present wins. */
  titleKeys: string[];
  /** Paths that may hold the item's page (`url`). */
  urlKeys?: string[];
  /** Paths shown first, untitled, before the sections. */
  overview?: string[];
  sections?: SectionSpec[];
  /** Sections printed last, after keys the layout does not name: details of the record. */
  trailing?: SectionSpec[];
}

export interface CardOptions {
  width: number;
  style: Style;
  /**
   * How `null` reads: "unknown" where the spec gives null that meaning (vendor and price
   * fields), "not documented" on research cards. An identifier that is null reads "none".
   */
  nullText?: string;
}
