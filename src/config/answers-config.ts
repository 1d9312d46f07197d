/**
 * The `answers` section of the config file, read on its own for the permission hook: the hook must start fast,
 * so it validates these fields with zod's small build instead of loading the whole config schema. The monitor
 * validates the same fields in config-file.ts, and leaves out only a bad field (drop-invalid.ts): here too each
 * field stands alone, so both read the same values (test/config/answers-agree.test.ts holds them together).
 */
import * as z from 'zod/mini';
import { configPath, readConfigText } from './config-path.js';

const FIELDS = {
  permissionWaitSeconds: z.int().check(z.gte(5), z.lte(600)),
  alwaysDestination: z.enum(['session', 'localSettings']),
};

export interface AnswersConfig {
  permissionWaitSeconds?: number;
  alwaysDestination?: 'session' | 'localSettings';
}

export function readAnswersConfig(env: NodeJS.ProcessEnv = process.env): AnswersConfig {
  const r = readConfigText(configPath(env));
  if (!r.ok) return {};
  let answers: unknown;
  try {
    answers = (JSON.parse(r.text) as { answers?: unknown } | null)?.answers;
  } catch {
    return {};
  }
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(FIELDS)) {
    if (!Object.hasOwn(answers, key)) continue;
    const p = schema.safeParse((answers as Record<string, unknown>)[key]);
    if (p.success) out[key] = p.data;
  }
  return out as AnswersConfig;
}
