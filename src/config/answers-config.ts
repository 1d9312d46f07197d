/**
 * The `answers` section of the config file, read on its own for the permission hook: the hook must start fast,
 * so it validates this one section with zod's small build instead of loading the whole config schema. The
 * monitor validates the same fields in config-file.ts (a test keeps the two in agreement). A bad section means
 * the defaults, as everywhere.
 */
import path from 'node:path';
import * as z from 'zod/mini';
import { readTextSync } from '../io/safe-fs/index.js';
import { configPath } from './config-path.js';

const AnswersSection = z.object({
  answers: z.optional(
    z.object({
      permissionWaitSeconds: z.optional(z.int().check(z.gte(5), z.lte(600))),
      alwaysDestination: z.optional(z.enum(['session', 'localSettings'])),
    }),
  ),
});

export interface AnswersConfig {
  permissionWaitSeconds?: number;
  alwaysDestination?: 'session' | 'localSettings';
}

export function readAnswersConfig(env: NodeJS.ProcessEnv = process.env): AnswersConfig {
  const file = configPath(env);
  const r = readTextSync(path.dirname(file), path.basename(file), 64 * 1024);
  if (!r.ok) return {};
  try {
    const p = AnswersSection.safeParse(JSON.parse(r.text));
    return p.success ? (p.data.answers ?? {}) : {};
  } catch {
    return {};
  }
}
