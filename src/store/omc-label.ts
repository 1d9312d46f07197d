/**
 * Which OMC judges the statuses, in the words every surface uses: the monitor's header (ui/chrome.tsx) and the
 * serve page's line (commands/serve/source.ts). When no OMC was found every verdict is a guess by the newest
 * book, and the header keeps a mark of it at every width (the long form first, then shorter ones).
 */
import { omcChangeWords, TRANSCRIPT_TAG, type OmcInstall } from './omc-install.js';
import { newerThanKnownWords } from './omc-books.js';
import { KEPT_TAG } from './omc-kept.js';
import type { SessionOmc } from './sessions/model.js';

/**
 * "OMC 5.5.0 (plugin)", "OMC 5.5.0 (--plugin-dir)" (a session's own Claude process), "OMC 4.9.2 (npm · 4.15.10
 * rules)" (a version judged by another version's book), "OMC 4.4.4/5.5.0 (per session)", or
 * "OMC ? (5.5.0 rules, assumed)" when none was found.
 */
export function omcLabel(omc: OmcInstall, seen: readonly SessionOmc[] = []): string {
  return omcGuessMarks(omc, seen)?.[0] ?? knownLabel(omc, seen);
}

/**
 * A session's own OMC: its Claude's `--plugin-dir`, live or recorded, or (that process gone, its command line never
 * read) the directory its transcript says Claude loaded OMC's skills from.
 */
const ownTag = (x: { sourceTag: string }) => x.sourceTag === '--plugin-dir' || x.sourceTag === TRANSCRIPT_TAG;

/** Releases in order, oldest first; an unknown one ("?") last. */
const byRelease = (a: string, b: string): number => {
  const n = (v: string) => /^(\d+)\.(\d+)\.(\d+)/.exec(v)?.slice(1).map(Number) ?? null;
  const x = n(a);
  const y = n(b);
  if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0);
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
};

function knownLabel(omc: OmcInstall, seen: readonly SessionOmc[]): string {
  const own = seen.filter(ownTag);
  if (own.length > 0) {
    const versions = [...new Set(own.map((x) => x.version ?? '?'))];
    const project = omc.assumed || omc.version === null ? [] : [omc.version];
    // Oldest first, whichever judged where: "4.4.4/5.5.0" reads the same for a 4.4.4 plugin beside a 5.5.0
    // --plugin-dir as for the reverse.
    const all = [...new Set([...project, ...versions])].sort(byRelease);
    // "(--plugin-dir)" while any session's Claude is known by its flags; else "(transcript)".
    const tag = own.some((x) => x.sourceTag === '--plugin-dir') ? '--plugin-dir' : TRANSCRIPT_TAG;
    if (all.length === 1) return `OMC ${versions[0]} (${tag}${own[0]?.exact ? '' : ` · ${own[0]?.rules} rules`})`;
    return `OMC ${all.join('/')} (per session)`;
  }
  // Kept while a file that decides it cannot be read (omc-kept.ts): the header says it is not checked now.
  const kept = omc.keptFrom ? ` · ${KEPT_TAG}` : '';
  // Several OMC plugins enabled: every one's Stop hook runs, so the header names them all.
  if (omc.alongside && omc.alongside.length > 0) {
    const all = [...new Set([omc, ...omc.alongside].map((i) => i.version ?? '?'))].sort(byRelease);
    return `OMC ${all.join('+')} (${omc.alongside.length + 1} plugins${kept})`;
  }
  const tag = omc.sourceTag === 'env' ? 'CLAUDE_PLUGIN_ROOT' : omc.sourceTag;
  return `OMC ${omc.version ?? '?'} (${tag}${omc.book.exact ? '' : ` · ${omc.rules} rules`}${kept})`;
}

/**
 * The guess's mark, longest first ("OMC ? (5.5.0 rules, assumed)", "OMC ? (assumed)", "OMC ?"), or null when the
 * OMC is known (a session's own --plugin-dir names one too).
 */
export function omcGuessMarks(omc: OmcInstall, seen: readonly SessionOmc[] = []): readonly string[] | null {
  if (seen.some(ownTag)) return null;
  if (!omc.assumed && omc.version !== null) return null;
  return [`OMC ? (${omc.rules} rules, assumed)`, 'OMC ? (assumed)', 'OMC ?'];
}

/** The serve page's line for a guess (the header's long mark, then what it means), or null when the OMC is known. */
export function omcGuessLine(omc: OmcInstall, seen: readonly SessionOmc[] = []): string | null {
  const mark = omcGuessMarks(omc, seen)?.[0];
  if (mark === undefined) return null;
  return `${mark}: no OMC install was found, so every status here is what OMC ${omc.rules}'s Stop hook would do, a guess`;
}

/**
 * The message line when another OMC runs the project's hooks, in the header's words: while a session's own
 * `--plugin-dir` names an OMC the header says `OMC 5.5.0 (--plugin-dir)` whatever the project's files say, so the
 * line names the header's label before and after, and is null when that label stays (the last `--plugin-dir`
 * Claude exiting leaves its session judged by its recorded flags: nothing the header shows changed). Without
 * such a session the header names the project's install, and so does the line ("OMC 5.5.0 now (was 4.4.4)").
 */
export function omcChangeLine(
  next: OmcInstall,
  was: OmcInstall,
  seen: readonly SessionOmc[] = [],
  /** The sessions' own OMCs before, when they changed too (a `--plugin-dir` release upgraded in place). */
  seenWas: readonly SessionOmc[] = seen,
): string | null {
  if (!seen.some(ownTag) && !seenWas.some(ownTag)) return omcChangeWords(next, was);
  const now = omcLabel(next, seen);
  const before = omcLabel(was, seenWas);
  if (now === before) return null;
  const newer = next.assumed ? null : newerThanKnownWords(next.version);
  return `${now} now (was ${before.replace(/^OMC /, '')}): verdicts re-judged${newer ? `; ${newer}` : ''}`;
}
