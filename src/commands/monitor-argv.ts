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
