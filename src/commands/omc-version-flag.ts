/**
 * `--omc-version X`, taken the same way by every command that judges sessions (the monitor, --json, cancel,
 * watch, status): one check and one message, so a version the monitor refuses is refused everywhere. Light on
 * purpose: the bin's status path parses it before anything else is loaded.
 */
import { UsageError } from './args.js';
import { shownArg } from '../io/shown-arg.js';

/** `--omc-version X` must name a version; anything else is a usage error, not a silent default. */
export function checkOmcVersionFlag(override: string | undefined): string | undefined {
  if (override !== undefined && !/^v?\d+\.\d+\.\d+$/.test(override.trim()))
    throw new UsageError(`--omc-version needs a version like 5.5.0 or 4.4.4, not ${shownArg(override)}`);
  return override;
}
