/** Types of scripts/sandbox-audit.mjs, for the tests that call it. */
export type Counts = Partial<Record<"C" | "H" | "N" | "O" | "S", number>>;
export const AMINO_ACIDS: Record<string, string>;
export const ATOMIC_MASS: Record<"C" | "H" | "N" | "O" | "S", number>;
export function parseFormula(text: unknown): Counts | undefined;
export function peptideFormula(sequence: string): Counts | undefined;
export function hillFormula(counts: Counts): string;
export function averageMass(counts: Counts): number;
export interface Violation {
  rule: string;
  subject: string;
  detail: string;
}
export interface AuditReport {
  profiles: number;
  studies: number;
  citations: number;
  badCitations: number;
  profilesCitingOtherPeptides: number;
  byRule: Record<string, number>;
  violations: Violation[];
}
export function auditResearch(input: { profiles: any[]; summaries?: any[]; studies: any[] }): AuditReport;
