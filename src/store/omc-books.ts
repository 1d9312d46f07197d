/**
 * Which rule book judges an OMC version, and what is known to differ. omc-top carries three books,
 * each restated from a wired Stop hook and checked against it: 4.4.4 (`persistent-mode.cjs`, npm),
 * 4.15.10 (`persistent-mode.mjs`, the GitHub source at 94e71c36) and 5.5.0 (`persistent-mode.mjs`,
 * npm). Every other version is judged by the nearest book, and says so: the ranges below come from
 * the release tags of the OMC repository (which hook script each tag wires, and when each rule
 * appeared in it) and, after 5.5.0, from the published 5.6 changes (research/omc-5.6.md).
 *
 * Where a version's state lives (its `.omc` root) changed between releases too: `rootFlavor`.
 */
import type { HookGap, RulesVersion } from './verdict/types.js';

/** How a release finds its `.omc` root (see root.ts). */
export type RootFlavor =
  /** ≤ 4.14: `<cwd>/.omc` as the hook runs, no OMC_STATE_DIR, no superproject climb. */
  | 'cwd'
  /** 4.15: OMC_STATE_DIR (project id hashed from the hook's cwd), marker, superproject, else cwd. */
  | '4.15'
  /** 5.0–5.5: git top level; without a usable git (or outside git) `$HOME/.omc`. */
  | '5.5'
  /** 5.6+: as 5.5, plus a `.git` walk when git is missing and the nearest non-git ancestor with `.omc/`. */
  | '5.6';

export interface BookChoice {
  rules: RulesVersion;
  /** The book was taken from this version's own hook (or a byte-identical one). */
  exact: boolean;
  /** The releases this choice covers, e.g. "4.15.6–4.15.10". */
  range: string;
  /** What is known to differ from the book for this version, in words (empty when exact). */
  differences: string[];
  /** Of those, the checks the verdict leaves out for this version (HookContext.lacks); absent: none. */
  lacks?: readonly HookGap[];
  rootFlavor: RootFlavor;
}

type V = [number, number, number];
const parse = (v: string): V | null => {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
};
const before = (a: V, b: V) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const lt = (v: V, s: string) => before(v, parse(s) as V) < 0;

/**
 * The checks of the 4.15.10 book's hook that 4.6.1–4.15.2 lack and the verdict models (release tags of OMC's
 * repository: stop_hook_active from 4.14.5, DISABLE_OMC / OMC_SKIP_HOOKS from 4.15.3).
 */
function gaps415(v: V): HookGap[] {
  const out: HookGap[] = [];
  if (lt(v, '4.14.5')) out.push('stop-hook-active');
  if (lt(v, '4.15.3')) out.push('hook-switch');
  return out;
}

/** The differences of 4.6.1–4.15.5 from the 4.15.10 book, per feature and the release that brought it. */
function differences415(v: V): string[] {
  const out: string[] = [];
  if (lt(v, '4.12.0'))
    out.push('it wires persistent-mode.cjs, an earlier script: no project check on ralph, its own staleness rule');
  if (lt(v, '4.12.0')) out.push('a simpler cancel-signal rule (in force while expires_at is in the future)');
  else if (lt(v, '4.15.6')) out.push('no digest-bound autopilot cancel signal');
  if (lt(v, '4.8.2')) out.push('ralph stops at max_iterations (no extension by 10)');
  if (lt(v, '4.9.1')) out.push('no awaiting-confirmation window: a keyword-started loop is enforced at once');
  if (lt(v, '4.13.5')) out.push('no workflow tombstones');
  if (lt(v, '4.13.7')) out.push('no pending-async-work escape');
  if (lt(v, '4.14.2')) out.push('no ultragoal gate');
  if (lt(v, '4.14.5')) out.push('no stop_hook_active check: a second Stop in one turn blocks too');
  if (lt(v, '4.15.3')) out.push('no DISABLE_OMC / OMC_SKIP_HOOKS check: the Stop hook enforces whatever they say');
  return out;
}

const NOT_STUDIED = (what: string) => `${what}: not studied (no source or package to run); judged by this book`;

/** The book for an OMC version (null = not found: the newest book, marked assumed by the caller). */
export function bookFor(version: string | null): BookChoice {
  const v = version === null ? null : parse(version);
  if (v === null) return { rules: '5.5.0', exact: false, range: 'unknown version', differences: [], rootFlavor: '5.6' };
  if (v[0] < 4)
    return {
      rules: '4.4.4',
      exact: false,
      range: 'before 4.0',
      differences: [NOT_STUDIED('OMC 3.x and older')],
      rootFlavor: 'cwd',
    };
  if (v[0] === 4 && v[1] < 4)
    return {
      rules: '4.4.4',
      exact: false,
      range: '4.0–4.3',
      differences: [
        "an earlier revision of 4.4's persistent-mode.cjs (up to 4.2 it also enforces ecomode; its notifications differ)",
      ],
      rootFlavor: 'cwd',
    };
  if (v[0] === 4 && v[1] === 4)
    return { rules: '4.4.4', exact: true, range: '4.4.0–4.4.5', differences: [], rootFlavor: 'cwd' };
  // 4.5.0–4.6.0 still read no cancel signal and have no confirmation window: closer to 4.4's rules
  // than to 4.15's; they add only the team gates.
  if (v[0] === 4 && lt(v, '4.6.1'))
    return {
      rules: '4.4.4',
      exact: false,
      range: '4.5.0–4.6.0',
      differences: [lt(v, '4.5.4') ? 'a team gate (4.5.0)' : 'team and omc-teams gates (4.5.0, 4.5.4)'],
      rootFlavor: 'cwd',
    };
  if (v[0] === 4) {
    const exact = !lt(v, '4.15.6');
    const diffs = exact ? [] : differences415(v);
    if (!exact && !lt(v, '4.11.6') && lt(v, '4.15.0'))
      diffs.push('its Stop hook honours OMC_STATE_DIR but its keyword hook does not (they may use different roots)');
    return {
      rules: '4.15.10',
      exact,
      range: exact ? '4.15.6–4.15.10' : '4.6.1–4.15.5',
      differences: diffs,
      lacks: gaps415(v),
      rootFlavor: lt(v, '4.15.0') ? 'cwd' : '4.15',
    };
  }
  if (v[0] === 5 && v[1] < 5)
    return {
      rules: '5.5.0',
      exact: false,
      range: '5.0–5.4',
      differences: [NOT_STUDIED('OMC 5.0–5.4')],
      rootFlavor: '5.5',
    };
  if (v[0] === 5 && v[1] === 5)
    return { rules: '5.5.0', exact: !lt(v, '5.5.0'), range: '5.5.x', differences: [], rootFlavor: '5.5' };
  return {
    rules: '5.5.0',
    exact: false,
    range: newerThanKnown(version) ? `newer than ${NEWEST_KNOWN.words}` : NEWEST_KNOWN.words,
    differences: [
      'a budget-guard Stop hook can block a stop once a run is over OMC_RUN_BUDGET_TOKENS (OMC_BUDGET_ENFORCE=active)',
      'the same persistent-mode rules as far as the published 5.6 changes show (cancel signals, modes, caps)',
    ],
    rootFlavor: '5.6',
  };
}

/**
 * The newest OMC releases omc-top knows anything of (research/omc-5.6.md: 5.6.0–5.6.2, published changes only):
 * a version after them is judged by the same book as they are, with nothing known of what it changed.
 */
export const NEWEST_KNOWN = { major: 5, minor: 6, words: '5.6.x' } as const;

/** Whether `version` is newer than every release omc-top knows (5.7.0, 6.0.0, 9.9.9; not 5.6.9). */
export function newerThanKnown(version: string | null): boolean {
  const v = version === null ? null : parse(version);
  if (v === null) return false;
  return v[0] > NEWEST_KNOWN.major || (v[0] === NEWEST_KNOWN.major && v[1] > NEWEST_KNOWN.minor);
}

/**
 * The one line every surface says of such a version (the monitor's message line and the session's detail, `--json`'s
 * `omc_version.newer_than_known`, `watch --json`'s `omc`), else null: its statuses are a guess from older rules.
 */
export function newerThanKnownWords(version: string | null): string | null {
  if (version === null || !newerThanKnown(version)) return null;
  const b = bookFor(version);
  return (
    `OMC ${version} is newer than any release omc-top knows (newest ${NEWEST_KNOWN.words}): ` +
    `judged by ${NEWEST_KNOWN.words}'s rules (the ${b.rules} book, approx.)`
  );
}

/** "4.15.10 rules" / "4.15.10 rules, approx." for the header and the detail view. */
export function bookWords(b: BookChoice): string {
  return `${b.rules} rules${b.exact ? '' : ', approx.'}`;
}
