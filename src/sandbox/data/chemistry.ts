/**
 * Chemistry of a synthetic profile, computed from its sequence so the fields agree with
 * each other and with any chemistry library: a linear peptide's formula is the sum of its
 * residues (each amino acid less the water its peptide bond releases) plus one water for
 * the free ends; its weight is that formula at standard average atomic masses.
 */

type Element = "C" | "H" | "N" | "O" | "S";
type Formula = Record<Element, number>;

/** Residue formulas (the amino acid less one H2O), by three-letter code; Cys and Met carry the sulfur. */
const RESIDUES: Record<string, readonly [c: number, h: number, n: number, o: number, s: number]> = {
  Ala: [3, 5, 1, 1, 0],
  Arg: [6, 12, 4, 1, 0],
  Asn: [4, 6, 2, 2, 0],
  Asp: [4, 5, 1, 3, 0],
  Cys: [3, 5, 1, 1, 1],
  Gln: [5, 8, 2, 2, 0],
  Glu: [5, 7, 1, 3, 0],
  Gly: [2, 3, 1, 1, 0],
  His: [6, 7, 3, 1, 0],
  Ile: [6, 11, 1, 1, 0],
  Leu: [6, 11, 1, 1, 0],
  Lys: [6, 12, 2, 1, 0],
  Met: [5, 9, 1, 1, 1],
  Phe: [9, 9, 1, 1, 0],
  Pro: [5, 7, 1, 1, 0],
  Ser: [3, 5, 1, 2, 0],
  Thr: [4, 7, 1, 2, 0],
  Trp: [11, 10, 2, 1, 0],
  Tyr: [9, 9, 1, 2, 0],
  Val: [5, 9, 1, 1, 0],
};

/** The twenty standard residues, alphabetical. */
export const RESIDUE_CODES: readonly string[] = Object.keys(RESIDUES);

/**
 * Average atomic masses in millidaltons (IUPAC conventional standard atomic weights:
 * C 12.011, H 1.008, N 14.007, O 15.999, S 32.06), summed as integers so the weight is
 * exact before its one rounding to 0.01 Da.
 */
const MILLI_DA: Formula = { C: 12_011, H: 1_008, N: 14_007, O: 15_999, S: 32_060 };

export function peptideFormula(residues: readonly string[]): Formula {
  const f: Formula = { C: 0, H: 2, N: 0, O: 1, S: 0 }; // the water of the free N- and C-terminus
  for (const code of residues) {
    const r = RESIDUES[code];
    if (!r) throw new RangeError(`unknown residue ${code}`);
    f.C += r[0];
    f.H += r[1];
    f.N += r[2];
    f.O += r[3];
    f.S += r[4];
  }
  return f;
}

/** Hill notation: C, H, then N, O, S; a count of one is not written, a zero is left out. */
export function hillNotation(f: Formula): string {
  return (["C", "H", "N", "O", "S"] as const)
    .filter((el) => f[el] > 0)
    .map((el) => `${el}${f[el] === 1 ? "" : f[el]}`)
    .join("");
}

/** Average molecular weight in daltons, to 0.01 Da. */
export function averageWeight(f: Formula): number {
  const milli = (Object.keys(MILLI_DA) as Element[]).reduce((sum, el) => sum + MILLI_DA[el] * f[el], 0);
  return Math.round(milli / 10) / 100;
}

/** The chemical properties of a profile whose sequence is `residues`. */
export function chemistryOf(residues: readonly string[]) {
  const formula = peptideFormula(residues);
  return {
    sequence: residues.join("-"),
    sequenceLength: residues.length,
    molecularFormula: hillNotation(formula),
    molecularWeightDa: averageWeight(formula),
  };
}
