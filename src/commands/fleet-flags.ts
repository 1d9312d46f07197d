/**
 * The flags that pick or judge one project, which the fleet (`--all`, `--host`: every project, each read from the
 * root its own OMC finds and judged by the OMC that runs its hooks) has no use for. Given with it they are refused
 * with a line that says why and what to run instead (exit 2), never ignored: a user who typed
 * `--all --omc-version 4.4.4` would otherwise read the fleet's verdicts as 4.4.4's.
 */
import { UsageError } from './args.js';

const WHY: Record<string, string> = {
  cwd: 'the fleet finds its projects itself (use --cwd without it to watch one)',
  root: 'the fleet reads each project from the root its own OMC finds (use --root without it to watch one)',
  'omc-version':
    "the fleet judges each project by the OMC that runs its hooks (use --omc-version without it for one project's what-if)",
  json: 'the fleet is a screen (for scripts: watch --json in each project, or serve --all)',
};

/** Throws the usage error for the first one-project flag among `flags` (`fleet`: "--all" or "--host"). */
export function refuseOneProjectFlags(flags: ReadonlyMap<string, unknown>, fleet: '--all' | '--host'): void {
  for (const [flag, why] of Object.entries(WHY))
    if (flags.has(flag)) throw new UsageError(`--${flag} cannot be used with ${fleet}: ${why}`);
}
