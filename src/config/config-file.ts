/**
 * The user's defaults: `$XDG_CONFIG_HOME/omc-top/config.json` (else
 * `~/.config/omc-top/config.json`), validated with zod. A bad file never
 * stops omc-top: the defaults apply and the error names the file and the
 * field. Read through the safe read path (fsx.ts) like every other file.
 */
import path from 'node:path';
import { z } from 'zod';
import { checkHostSpec } from './host-spec.js';
import { configPath } from './config-path.js';
import { PushSchema } from './push-config.js';
import { readTextSync } from '../io/safe-fs/index.js';
import { cleanLine } from '../io/sanitize.js';
import { lazyObject } from '../io/lazy-object.js';
import { shownPath } from '../io/shown-path.js';

export const CHANNELS = ['bell', 'osc', 'tmux'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * The reasons the attention model gives (src/feeds/attention/needs.ts and kinds.ts). Needs-you reasons notify
 * on the default channels unless turned off here; news reasons notify only when turned on here. The last four
 * are no longer raised (a config file that names them still loads).
 */
export const NEED_REASONS = [
  'waiting for you',
  'orphaned loop',
  'idle loop',
  'cancel did not take',
  'team failed',
  'stalled: no live worker',
  'dead worker',
  'unreadable loop state',
] as const;
export const NEWS_REASONS = ['loop finished', 'loop stopped', 'max iterations reached'] as const;
export const REASONS = [
  ...NEED_REASONS,
  ...NEWS_REASONS,
  'loop will stop',
  'loop cancelled',
  'pause over',
  'problem',
] as const;

const channelList = lazyObject(() => z.array(z.enum(CHANNELS)));
const usdPerMillion = lazyObject(() => z.number().finite().min(0).max(10_000));
const PriceSchema = lazyObject(() =>
  z.strictObject({
    input: usdPerMillion,
    output: usdPerMillion,
    cacheRead: usdPerMillion,
    cacheWrite: usdPerMillion,
    /** The 1-hour cache write (default: the 5-minute rate). */
    cacheWrite1h: usdPerMillion.optional(),
    /** USD per web search request (default 0). */
    webSearch: usdPerMillion.optional(),
  }),
);
const ConfigSchema = lazyObject(() =>
  z.strictObject({
    notify: z
      .strictObject({
        /** Which channels are on by default (the `--notify` flag overrides). */
        channels: channelList.optional(),
        /** Transitions closer together than this become one notification. */
        debounceMs: z.number().int().min(0).max(60_000).optional(),
        /** Per reason: false (never), true (the default channels) or its own channels. */
        reasons: z.partialRecord(z.enum(REASONS), z.union([z.boolean(), channelList])).optional(),
      })
      .optional(),
    /** Push to the user's phone: ntfy, a JSON webhook, Telegram, Discord (push-config.ts). */
    push: PushSchema.optional(),
    /** The "needs you: N" terminal title (OSC 2). */
    title: z.boolean().optional(),
    /** Model prices in USD per million tokens, for the "est." cost (src/store/claude/prices.ts); a key is a model id or its prefix. */
    prices: z.record(z.string().min(1).max(200), PriceSchema).optional(),
    /** Answering loops from the monitor (docs/answering.md). */
    answers: z
      .strictObject({
        /** How long the permission hook waits for an answer before Claude's own prompt is all there is. */
        permissionWaitSeconds: z.number().int().min(5).max(600).optional(),
        /** Where "always" keeps the rule: this session only (default) or the project's .claude/settings.local.json. */
        alwaysDestination: z.enum(['session', 'localSettings']).optional(),
        /** The command resume runs in a new tmux window, before `--resume <session>` (default "claude"). */
        claudeCommand: z.string().min(1).max(1000).optional(),
      })
      .optional(),
    /** Machines the fleet view (`--all` / `--host`) also shows: "user@box" or "user@box:/dir", as for --host. */
    hosts: z
      .array(
        z
          .string()
          .max(600)
          .superRefine((s, ctx) => {
            const r = checkHostSpec(s);
            if (typeof r === 'string') ctx.addIssue({ code: 'custom', message: r });
          }),
      )
      .max(32)
      .optional(),
  }),
);
export type OmcTopConfig = z.infer<typeof ConfigSchema>;

export { configPath } from './config-path.js';

export interface LoadedConfig {
  config: OmcTopConfig;
  path: string;
  /** One line: the file, the field, what is wrong (the defaults apply). */
  error: string | null;
}

export function loadConfig(file = configPath()): LoadedConfig {
  const r = readTextSync(path.dirname(file), path.basename(file), 64 * 1024);
  if (!r.ok) {
    if (r.code === 'missing') return { config: {}, path: file, error: null };
    return { config: {}, path: file, error: cleanLine(`${shownPath(file)}: ${r.message} (using the defaults)`) };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(r.text);
  } catch (e) {
    return {
      config: {},
      path: file,
      error: cleanLine(`${shownPath(file)}: not valid JSON: ${(e as Error).message} (using the defaults)`),
    };
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (parsed.success) return { config: parsed.data, path: file, error: null };
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
  return {
    config: {},
    path: file,
    error: cleanLine(`${shownPath(file)}: ${field}: ${issue?.message ?? 'invalid'} (using the defaults)`),
  };
}

/** `--notify=bell,osc,tmux` (or `none`). */
export function parseChannels(value: string): Channel[] | string {
  if (value === 'none') return [];
  const out: Channel[] = [];
  for (const part of value.split(',').map((s) => s.trim())) {
    if (!(CHANNELS as readonly string[]).includes(part)) {
      return `--notify: unknown channel ${JSON.stringify(cleanLine(part))} (bell, osc, tmux or none)`;
    }
    out.push(part as Channel);
  }
  return out;
}
