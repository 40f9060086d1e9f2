/**
 * Word stock for invented names. Peptide names are built from syllables plus a numeric
 * marker ("Zorvatide-7") so they cannot pass for real compounds; vendor names are built
 * the same way and live on `.example` domains.
 */
import type { Rng } from "./prng.js";

const PEPTIDE_HEADS = [
  "Zor",
  "Vel",
  "Quin",
  "Thal",
  "Mer",
  "Xan",
  "Dro",
  "Kel",
  "Brev",
  "Sul",
  "Tor",
  "Lun",
  "Pax",
  "Ven",
  "Oru",
  "Fen",
  "Cald",
  "Ist",
  "Nor",
  "Yel",
  "Griv",
  "Hol",
  "Jax",
  "Wyr",
];
const PEPTIDE_MIDS = ["va", "ri", "lo", "ne", "ta", "mi", "so", "ga", "de", "xo", "be", "tu", "qua", "zi"];
const PEPTIDE_TAILS = ["tide", "dorin", "plexin", "tarin", "voxide", "quelin", "zamide"];

const VENDOR_HEADS = [
  "Kelv",
  "Quint",
  "Ardu",
  "Bril",
  "Cova",
  "Dunm",
  "Elst",
  "Forv",
  "Glen",
  "Harv",
  "Ilm",
  "Jorv",
  "Lumb",
  "Marr",
  "Nesk",
  "Orv",
  "Pell",
  "Rask",
  "Sorb",
  "Tamm",
];
const VENDOR_MIDS = ["ora", "aro", "ine", "eld", "ax", "ira", "ond", "ulo"];
const VENDOR_TAILS = ["Labs", "Supply", "Research Materials", "Reagents", "Biochem Example", "Compounds", "Sciences"];

/** Family names, a few with characters outside ASCII so citation writers are exercised. */
export const FAMILY_NAMES = [
  "Müller",
  "Ødegaard",
  "Nuñez",
  "Søndergaard",
  "Çelik",
  "Łukasiewicz",
  "O'Briain",
  "Abernathy",
  "Brandt",
  "Castellanos",
  "Dąbrowski",
  "Eriksen",
  "Fontaine",
  "Grünewald",
  "Haddad",
  "Ishikawa",
  "Jovanović",
  "Kowalczyk",
  "Lindqvist",
  "Moreau",
  "Novák",
  "Okafor",
  "Petrov",
  "Quintero",
  "Rasmussen",
  "Schäfer",
  "Takahashi",
  "Urbina",
  "Varga",
  "Whitfield",
  "Yilmaz",
  "Zhou",
];
export const GIVEN_NAMES = [
  "Anna",
  "Björn",
  "Chiara",
  "Dmitri",
  "Elif",
  "François",
  "Grete",
  "Hiro",
  "Inés",
  "Jonas",
  "Katarzyna",
  "Lars",
  "Maëlle",
  "Nikolai",
  "Olu",
  "Priya",
  "Rafael",
  "Sofía",
  "Tomás",
  "Ulla",
  "Wen",
  "Yusuf",
  "Zoë",
];

export const JOURNALS = [
  "Journal of Example Peptide Research",
  "Annals of Synthetic Biology (Sandbox Edition)",
  "Example Reports in Molecular Physiology",
  "International Review of Placeholder Pharmacology",
  "Sandbox Clinical Investigations",
  "Notes in Illustrative Cell Science",
  "Example Regulatory Science Bulletin",
];

export const RESEARCH_AREAS: { name: string; categories: string[] }[] = [
  { name: "Tissue repair", categories: ["muscle-recovery", "cosmetic"] },
  { name: "Appetite regulation", categories: ["fat-loss", "glp1-metabolic"] },
  { name: "Sleep architecture", categories: ["cognitive", "longevity"] },
  { name: "Skin barrier function", categories: ["cosmetic"] },
  { name: "Mitochondrial function", categories: ["longevity", "experimental"] },
  { name: "Memory consolidation", categories: ["cognitive"] },
  { name: "Insulin sensitivity", categories: ["glp1-metabolic", "fat-loss"] },
  { name: "Lipid metabolism", categories: ["fat-loss", "glp1-metabolic"] },
  { name: "Muscle protein synthesis", categories: ["muscle-recovery"] },
  { name: "Tendon healing", categories: ["muscle-recovery"] },
  { name: "Inflammation signalling", categories: ["muscle-recovery", "experimental"] },
  { name: "Cellular senescence", categories: ["longevity"] },
  { name: "Hair follicle biology", categories: ["cosmetic"] },
  { name: "Pigmentation", categories: ["cosmetic", "experimental"] },
  { name: "Neuroprotection", categories: ["cognitive", "experimental"] },
  { name: "Gut barrier integrity", categories: ["experimental", "muscle-recovery"] },
  { name: "Bone density", categories: ["longevity", "muscle-recovery"] },
  { name: "Cardiovascular markers", categories: ["glp1-metabolic", "longevity"] },
  { name: "Immune modulation", categories: ["experimental", "longevity"] },
  { name: "Glucose homeostasis", categories: ["glp1-metabolic"] },
];

export const MECHANISM_TARGETS = [
  "an orphan G-protein-coupled receptor",
  "a melanocortin-like receptor family",
  "growth-factor signalling",
  "mitochondrial membrane proteins",
  "tight-junction proteins",
  "incretin-like receptors",
  "collagen synthesis pathways",
  "neurotrophic signalling",
  "inflammatory cytokine release",
  "sirtuin-like enzymes",
];

export function peptideName(rng: Rng): string {
  const mids = rng.int(0, 2);
  let name = rng.pick(PEPTIDE_HEADS);
  for (let i = 0; i < mids; i++) name += rng.pick(PEPTIDE_MIDS);
  return `${name}${rng.pick(PEPTIDE_TAILS)}-${rng.int(2, 98)}`;
}

/** `attempt` grows with collisions: longer names first, then a branch number, so large scales always find a free name. */
export function vendorName(rng: Rng, attempt = 0): string {
  let head = `${rng.pick(VENDOR_HEADS)}${rng.pick(VENDOR_MIDS)}`;
  if (attempt >= 3) head += rng.pick(VENDOR_MIDS);
  const name = `${head} ${rng.pick(VENDOR_TAILS)}`;
  return attempt >= 12 ? `${name} Branch ${rng.int(2, 9999)}` : name;
}

export function authorName(rng: Rng): string {
  return `${rng.pick(FAMILY_NAMES)}, ${rng.pick(GIVEN_NAMES)}`;
}

export function slugify(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
