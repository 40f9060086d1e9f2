/**
 * Author names for reference managers. The API's author lists are not specified, so
 * every common form is accepted: an array of "Family, Given", "Family GH" (PubMed),
 * "Given Family" strings or `{ family, given }`-like objects, or one string listing
 * several ("Smith J, Doe A" or "Smith, John; Doe, Anna"). A name that cannot be split
 * stays whole as a literal: one word ("Anonymous"), or an organisation.
 *
 * An author is an organisation when it has no comma (a comma means "Family, Given") and
 * either holds a word that names a body (Group, Organization, Consortium, Committee,
 * Agency, Society, Collaboration, Institute, … see ORGANISATION), an `&`, or has more
 * than three words one of which is a lower-case joining word that is not a name particle
 * ("Centers for Disease Control and Prevention"). So "World Health Organization" and
 * "Research and Development Group" stay whole, while "Smith J", "Jean-Luc Picard",
 * "Ludwig van Beethoven" and "María José Sánchez López" are still people.
 */
import { cleanLine } from "../../core/sanitize.js";
import { isPlainObject } from "../value-paths.js";

export interface Name {
  family?: string;
  given?: string;
  /** A name kept whole: "WHO Study Group". */
  literal?: string;
}

/** "GH", "G.H.", "G-H" as the trailing token of a PubMed-style name. */
const INITIALS = /^(?:[\p{Lu}][.-]?){1,3}\.?$/u;
/** Lower-case particles that belong to the family name ("van Beethoven"). */
const PARTICLES = new Set([
  "van",
  "von",
  "der",
  "den",
  "de",
  "del",
  "della",
  "di",
  "da",
  "du",
  "la",
  "le",
  "dos",
  "das",
  "ten",
  "ter",
  "bin",
  "al",
  "el",
]);
/** Words that name a body rather than a person. */
const ORGANISATION = new Set(
  (
    "group groups organization organisation consortium committee agency society collaboration collaborative collaborators " +
    "institute institutes institution association council foundation network centre center centers centres department " +
    "university college hospital clinic board commission team investigators alliance federation trust office ministry " +
    "laboratory laboratories lab program programme initiative panel partnership unit service services corporation company " +
    "inc ltd llc gmbh authority administration bureau registry academy"
  ).split(" "),
);
/** Lower-case words that join the words of a body's name, never a person's. */
const JOINING = new Set(["and", "for", "of", "on", "the", "in", "to", "at", "&"]);

/** "World Health Organization", "WHO Study Group", "Centers for Disease Control and Prevention". */
export function isOrganisation(name: string): boolean {
  if (name.includes(",")) return false;
  const tokens = name.trim().split(/\s+/);
  if (name.includes("&")) return true;
  if (tokens.some((t) => ORGANISATION.has(t.toLowerCase().replace(/[^\p{L}]/gu, "")))) return true;
  return tokens.length > 3 && tokens.some((t) => JOINING.has(t) && !PARTICLES.has(t));
}

const ET_AL = /^(?:et\.?\s*al\.?|others|and others)$/i;

function spaceInitials(token: string): string {
  const letters = [...token.replace(/[.-]/g, "")];
  return letters.map((l) => `${l}.`).join(" ");
}

/** One name string as family and given parts. */
export function parseName(raw: string): Name | undefined {
  const s = cleanLine(raw).trim().replace(/\s+/g, " ");
  if (s === "" || ET_AL.test(s)) return undefined;
  const comma = s.indexOf(",");
  if (comma > 0) {
    const family = s.slice(0, comma).trim();
    const given = s.slice(comma + 1).trim();
    return given === "" ? { family } : { family, given };
  }
  const tokens = s.split(" ");
  if (tokens.length === 1 || isOrganisation(s)) return { literal: s };
  const last = tokens[tokens.length - 1]!;
  if (INITIALS.test(last) && tokens.length >= 2) {
    return { family: tokens.slice(0, -1).join(" "), given: spaceInitials(last) };
  }
  // "Given [particles] Family"
  let i = tokens.length - 1;
  while (i > 1 && PARTICLES.has(tokens[i - 1]!.toLowerCase())) i--;
  return { family: tokens.slice(i).join(" "), given: tokens.slice(0, i).join(" ") };
}

/** "Smith J, Doe AB" (every part ends in initials) is a list; "Smith, John" is one name. */
function splitList(s: string): string[] {
  if (s.includes(";")) return s.split(";");
  const parts = s
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const pubmedStyle =
    parts.length > 1 && parts.every((p) => ET_AL.test(p) || (p.includes(" ") && INITIALS.test(p.split(" ").pop()!)));
  if (pubmedStyle) return parts;
  // "Smith, John Paul" is one name; "John Smith, Anna Doe" two.
  if (parts.length === 2 && !parts.every((p) => p.includes(" "))) return [s];
  // "Smith, John, Doe, Anna": pairs of a one-word family and a given name.
  if (parts.length % 2 === 0 && parts.every((p, i) => i % 2 === 1 || !p.includes(" "))) {
    const pairs: string[] = [];
    for (let i = 0; i < parts.length; i += 2) pairs.push(`${parts[i]}, ${parts[i + 1]}`);
    return pairs;
  }
  return parts;
}

function nameFromObject(o: Record<string, unknown>): Name | undefined {
  const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? cleanLine(v).trim() : undefined);
  const family = str(o.family) ?? str(o.last_name) ?? str(o.lastName) ?? str(o.last) ?? str(o.surname);
  const given =
    str(o.given) ?? str(o.first_name) ?? str(o.firstName) ?? str(o.first) ?? str(o.forename) ?? str(o.initials);
  if (family) return given ? { family, given } : { family };
  const literal = str(o.literal);
  if (literal) return { literal };
  const name = str(o.name) ?? str(o.full_name);
  return name ? parseName(name) : undefined;
}

/** Any author value as a list of names. */
export function parseAuthors(value: unknown): Name[] {
  if (value === null || value === undefined) return [];
  if (typeof value === "string")
    return splitList(value)
      .map(parseName)
      .filter((n): n is Name => n !== undefined);
  if (Array.isArray(value)) {
    return value.flatMap((v) => {
      if (typeof v === "string") {
        const n = parseName(v);
        return n ? [n] : [];
      }
      if (isPlainObject(v)) {
        const n = nameFromObject(v);
        return n ? [n] : [];
      }
      return [];
    });
  }
  if (isPlainObject(value)) {
    const n = nameFromObject(value);
    return n ? [n] : [];
  }
  return [];
}
