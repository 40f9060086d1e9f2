// Medians, spreads and ratios of repeated runs.

export function sorted(xs) {
  return [...xs].sort((a, b) => a - b);
}

/** Quantile by linear interpolation between closest ranks. */
export function quantile(xs, q) {
  const s = sorted(xs);
  if (s.length === 0) return Number.NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export function summary(xs) {
  const s = sorted(xs);
  return {
    n: s.length,
    median: quantile(s, 0.5),
    min: s[0],
    max: s[s.length - 1],
    q1: quantile(s, 0.25),
    q3: quantile(s, 0.75),
  };
}

/** "123 ms (110–140)": the median and min–max, in a unit that reads well. */
export function fmt(sum, unit) {
  const f = (v) => formatValue(v, unit);
  if (sum.n === 1) return `${f(sum.median)}${suffix(unit)}`;
  return `${f(sum.median)}${suffix(unit)} (${f(sum.min)}–${f(sum.max)})`;
}

function suffix(unit) {
  return unit === "count" ? "" : ` ${unit}`;
}

function formatValue(v, unit) {
  if (unit === "count") return String(Math.round(v));
  if (unit === "KB" || unit === "B") return Math.round(v).toLocaleString("en-US");
  if (unit === "MB") return v.toFixed(1);
  if (unit === "s") return v >= 10 ? v.toFixed(1) : v.toFixed(2);
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}

/** "1.23x (IQR 1.18–1.30)" over paired ratios, or the ratio of medians alone. */
export function fmtRatio(ratio, pairs) {
  if (!Number.isFinite(ratio)) return "n/a";
  if (!pairs || pairs.length < 2) return `${ratio.toFixed(2)}x`;
  return `${ratio.toFixed(2)}x (IQR ${quantile(pairs, 0.25).toFixed(2)}–${quantile(pairs, 0.75).toFixed(2)})`;
}

/**
 * A table row setting paired runs against each other: medians, spreads, the ratio of
 * medians with the spread of per-run ratios, and whether `meets(ratio)` (null: reported only).
 */
export function ratioRow({ id, figure, unit, measured, against, target, meets }) {
  const m = summary(measured);
  const a = summary(against);
  const ratio = m.median / a.median;
  return {
    id,
    figure,
    measured: { sum: m, unit },
    against: { sum: a, unit },
    ratio,
    pairs: measured.map((v, i) => v / against[i]),
    target,
    met: meets ? meets(ratio) : null,
  };
}
