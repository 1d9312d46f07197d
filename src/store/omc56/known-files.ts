/**
 * Files OMC 5.6 added under .omc, recognised so they are explained instead of
 * reported as unknown (each entry names its upstream file).
 */
export interface KnownFile {
  /** Matches a path relative to the .omc root. */
  pattern: RegExp;
  what: string;
  /** What omc-top does with it. */
  omcTop: string;
}

export const OMC56_FILES: readonly KnownFile[] = [
  {
    pattern: /^state\/runs(\/ledger\.jsonl(\.1)?)?$/,
    what: "OMC 5.6 run ledger: one line per start/end of a ralph, autopilot, team or ultragoal run; rotated into ledger.jsonl.1 at 1,000 lines. OMC's next SessionStart reads it to report runs that ended without a closeout",
    omcTop: 'read for the run history; omc-top’s cancel appends the end line',
  },
  {
    pattern: /^state\/enforcement(\/shadow\.jsonl)?$/,
    what: 'OMC 5.6 enforcement log: what the Stop-hook guards (the token budget guard among them) decided each turn, with spend against budget when OMC_RUN_BUDGET_TOKENS is set',
    omcTop: 'read for spend vs budget; a pause warns when a loop is at or over budget',
  },
  {
    pattern: /^state\/sessions\/[^/]+\/feedback-baseline\.json$/,
    what: "OMC 5.6 ralph feedback baseline: the failure signatures of the project's check commands when the run started, so `omc ralph verify` fails only on new ones",
    omcTop: 'recognised; not shown',
  },
  {
    pattern: /^notepads(\/[^/]+(\/(problems|issues|learnings|decisions)\.md)?)?$/,
    what: 'OMC 5.6 per-mode notepads: a run writes its closeout here (problems.md / issues.md) before it ends; the ledger’s closeoutWritten is this file being newer than the run’s start',
    omcTop: 'recognised; its mtime decides "closeout written"',
  },
  {
    pattern: /^state\/intake-lock\.json$/,
    what: 'OMC 5.6 intake single-writer lock {pid, startedAt}: one `omc intake run` at a time; stale after 2 h; empty = released',
    omcTop: 'recognised; not shown',
  },
];

/** The explanation for a 5.6 path, or null when it is not one. */
export function explainOmc56Path(rel: string): KnownFile | null {
  return OMC56_FILES.find((f) => f.pattern.test(rel)) ?? null;
}
