/** Replaced at build time with package.json's version. */
declare const __PEP_VERSION__: string;
