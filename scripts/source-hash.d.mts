/** Types of scripts/source-hash.mjs, for the tests' global setup and helpers. */
export const BUILD_INPUTS: readonly string[];
export const STAMP: string;
export function inputFiles(root: string): string[];
export function sourceHash(root: string): string;
export function isCurrent(root: string): boolean;
