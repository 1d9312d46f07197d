/**
 * OMC 5.6's enforcement shadow log, `state/enforcement/shadow.jsonl`
 * (upstream scripts/lib/enforcement-log.mjs and scripts/budget-guard.mjs
 * @ 5b90a0ab, read for this: the newest version available here): one JSON
 * line `{ts, rule, mode, outcome: pass|warn|block|degraded, detail,
 * latencyMs}`; the budget guard writes rule "budget-stop" with the detail
 * `~<spend>/<budget> tokens (<pct>%)` (plain integers, pct rounded). Other
 * guards share the log: only lines of that rule (or with no rule) count.
 */
import { cleanLine } from '../../io/sanitize.js';
import { groupDigits } from '../../io/group-digits.js';

export const SHADOW_LOG_REL = 'state/enforcement/shadow.jsonl';
/** The budget guard's rule name in the log. */
export const BUDGET_RULE = 'budget-stop';

export interface BudgetReading {
  tsMs: number;
  mode: string | null;
  spend: number;
  budget: number;
  pct: number;
  outcome: string | null;
}

const SPEND = /~?\s*([\d,]+)\s*\/\s*([\d,]+)\s*tokens\s*\((\d+(?:\.\d+)?)%\)/;
const int = (s: string) => Number(s.replace(/,/g, ''));

export function parseShadowLine(text: string): BudgetReading | null {
  if (text.length > 4096) return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (o.rule !== undefined && o.rule !== BUDGET_RULE) return null;
  const m = typeof o.detail === 'string' ? SPEND.exec(o.detail) : null;
  const tsMs = typeof o.ts === 'string' ? Date.parse(o.ts) : Number.NaN;
  if (!m || !Number.isFinite(tsMs)) return null;
  return {
    tsMs,
    mode: typeof o.mode === 'string' ? cleanLine(o.mode).slice(0, 64) : null,
    spend: int(m[1] as string),
    budget: int(m[2] as string),
    pct: Number(m[3]),
    outcome: typeof o.outcome === 'string' ? cleanLine(o.outcome).slice(0, 16) : null,
  };
}

/** The newest reading per mode, from lines in file order. */
export function latestBudgetByMode(lines: readonly string[]): Map<string, BudgetReading> {
  const out = new Map<string, BudgetReading>();
  for (const l of lines) {
    const r = parseShadowLine(l);
    if (r) out.set(r.mode ?? '', r);
  }
  return out;
}

/**
 * The warning for omc-top's pause dialog: a pause leaves the state
 * `active: true`, and in `OMC_BUDGET_ENFORCE=active` the budget guard blocks
 * a stop at ≥ 100 % (and warns at ≥ 90 %) whatever the cancel signal says.
 */
export function pauseBudgetWarning(env: NodeJS.ProcessEnv, reading: BudgetReading | null | undefined): string | null {
  if (!reading) return null;
  const budgetSet = Number(env.OMC_RUN_BUDGET_TOKENS) > 0;
  const enforce = env.OMC_BUDGET_ENFORCE ?? 'shadow';
  const spent = `~${groupDigits(reading.spend)}/${groupDigits(reading.budget)} tokens (${reading.pct}%)`;
  if (reading.pct < 100) return null;
  if (budgetSet && enforce === 'active')
    return `this loop is at or over its token budget (${spent}) and OMC_BUDGET_ENFORCE=active: a pause keeps it active, so OMC's budget guard may block one more stop; cancel instead to end it`;
  return `this loop is at or over its token budget (${spent}); OMC only logs it (OMC_BUDGET_ENFORCE=${cleanLine(enforce)})`;
}
