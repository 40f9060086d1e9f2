/** Sizes as people read them: one rendering for every byte count pep shows (output/labels.ts). */
export { megabytes } from "../../output/labels.js";
