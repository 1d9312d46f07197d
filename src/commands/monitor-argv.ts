import path from 'node:path';

/**
 * What the bin can tell from the arguments before the app is loaded. The monitor on this directory (no
 * subcommand, no --cwd, not the fleet, not --help or --version) starts its root resolution by asking git for the
 * top level of the working directory (store/omc-root.ts), so the bin asks that question early (io/git-early.ts).
 * Anything else asks no such question first, and no git is started for it.
 */
export function asksTopLevelFirst(argv: readonly string[]): boolean {
  if (argv[0] !== undefined && !argv[0].startsWith('-')) return false;
  return !argv.some((a) => /^(--(cwd|all|host|help|version)\b|-[hvV]$)/.test(a));
}

/**
 * The project a monitor's `--root <project>/.omc` names: the store asks git for its top level as it is built (its
 * Claude settings, claude/hook-env.ts), so the bin asks that early instead of the working directory's
 * (store/omc-root.ts asks nothing of the working directory then). Null without such a flag (the last one counts, as
 * the parser takes it), or when the root is not named `.omc` (then the working directory's top level is asked).
 */
export function rootProjectDir(argv: readonly string[], cwd: string): string | null {
  const root = rootFlagValue(argv);
  if (!root) return null;
  const abs = path.resolve(cwd, root);
  return path.basename(abs) === '.omc' ? path.dirname(abs) : null;
}

/** Whether a root is given by hand (then the start asks git nothing more of the working directory's top level). */
export const hasRootFlag = (argv: readonly string[]): boolean => rootFlagValue(argv) !== undefined;

function rootFlagValue(argv: readonly string[]): string | undefined {
  let root: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') break;
    if (a === '--root') root = argv[++i];
    else if (a.startsWith('--root=')) root = a.slice('--root='.length);
  }
  return root;
}
