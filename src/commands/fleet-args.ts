/** `--host` may be given many times; the strict parser keeps one value per flag, so hosts are taken out first. */
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
