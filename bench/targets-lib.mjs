// The issue-30 targets are ratios measured in one run, so they hold on any host: each bench prints every target it
// measures as one Markdown table row (the ratio beside the absolute figures, met or not, the command that
// reproduces it), and names the host it ran on. BENCHMARKS.md's current table is these rows.
import path from 'node:path';
import { REPO, machine, pct } from './lib.mjs';

/** The command that reproduces a row: this script with its arguments, relative to the repository. */
export function commandLine() {
  const script = path.relative(REPO, process.argv[1] ?? '');
  return ['node', script, ...process.argv.slice(2)].join(' ');
}

const fmt = (x) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)) : '—');

/**
 * One target as a table row: `| target | measured | limit | figures | met | command |`.
 * `atLeast`: the ratio must be at least `limit` (omc-top ÷ HUD speed-up), else at most.
 */
export function ratioLine({ target, value, limit, figures, atLeast = false, command = commandLine() }) {
  const met = Number.isFinite(value) && (atLeast ? value >= limit : value <= limit);
  return `| ${target} | **${fmt(value)}×** | ${atLeast ? '≥' : '≤'} ${limit}× | ${figures} | ${
    Number.isFinite(value) ? (met ? 'met' : 'missed') : 'not measured'
  } | \`${command}\` |`;
}

/** The host line every bench ends with: CPU, cores, memory, kernel, Node and the load while it ran. */
export function hostLine(m, end = machine()) {
  return `host: ${m.cpu}, ${m.memGiB} GiB, Linux ${m.kernel}, Node ${m.node}; load average ${m.loadavg} at start, ${end.loadavg} at end; ${m.date} to ${end.date}`;
}

/** A 90 % bootstrap interval of p95(big) ÷ p95(small): how far the sampled ratio can be trusted. */
export function ratioInterval(big, small, draws = 2000) {
  if (!big.length || !small.length) return [NaN, NaN];
  const resample = (xs) => Array.from(xs, () => xs[Math.floor(Math.random() * xs.length)]);
  const rs = Array.from({ length: draws }, () => pct(resample(big), 95) / pct(resample(small), 95));
  return [pct(rs, 5), pct(rs, 95)];
}
