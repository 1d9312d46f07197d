/** `--host` may be given many times; the strict parser keeps one value per flag, so hosts are taken out first. */
import { checkHostSpec, uniqueHostSpecs, type HostSpec } from '../config/host-spec.js';
import { shownArg } from '../io/shown-arg.js';
import { UsageError } from './args.js';

export function takeRepeated(argv: readonly string[], name: string): { rest: string[]; values: string[] } {
  const rest: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (a === `--${name}`) {
      const v = argv[i + 1];
      if (v === undefined || v === '') throw new UsageError(`option --${name} needs a value`);
      values.push(v);
      i++;
    } else if (a.startsWith(`--${name}=`)) {
      const v = a.slice(name.length + 3);
      if (v === '') throw new UsageError(`option --${name} needs a value`);
      values.push(v);
    } else rest.push(a);
  }
  return { rest, values };
}

/**
 * The hosts a fleet shows, the same for `omc-top --all`/`--host` and `serve --all`/`--host`: the `--host` values
 * (one that is not a spec is a usage error naming why), then the config file's `hosts` (loadConfig checked them: a
 * bad entry was left out and its error line says so), each project once (uniqueHostSpecs: `twice` says which).
 */
export function fleetHostSpecs(
  given: readonly string[],
  configHosts: readonly string[] = [],
): { specs: HostSpec[]; twice: string | null } {
  const specs: HostSpec[] = [];
  for (const h of given) {
    const spec = checkHostSpec(h);
    if (typeof spec === 'string')
      throw new UsageError(`--host needs user@box or user@box:/dir, not ${shownArg(h)}: ${spec}`);
    specs.push(spec);
  }
  for (const h of configHosts) {
    const spec = checkHostSpec(h);
    if (typeof spec !== 'string') specs.push(spec);
  }
  return uniqueHostSpecs(specs);
}
