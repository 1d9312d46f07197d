/**
 * The user's defaults: `$XDG_CONFIG_HOME/omc-top/config.json` (else
 * `~/.config/omc-top/config.json`), validated with zod. A bad file never
 * stops omc-top: a bad field is left out and the rest applies (drop-invalid.ts),
 * a file that cannot be read or parsed means the defaults, and the error names
 * the file and the field. Read through the safe read path like every other
 * file, following a symlink (config-path.ts).
 */
import { z } from 'zod';
import { checkHostSpec } from './host-spec.js';
import { configPath, readConfigText } from './config-path.js';
import { parseKeepingValid } from './drop-invalid.js';
import { PushSchema } from './push-config.js';
import { cleanLine } from '../io/sanitize.js';
import { lazyObject } from '../io/lazy-object.js';
import { shownPath } from '../io/shown-path.js';
import { shownArg } from '../io/shown-arg.js';
import { jsonProblem } from '../io/json-problem.js';
import type { ReadResult } from '../io/safe-fs/index.js';

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
  'cancel failed',
  'team failed',
  'stalled: no live worker',
  'dead worker',
  'unreadable loop state',
  'OMC gate waiting',
] as const;
export const NEWS_REASONS = [
  'loop finished',
  'loop stopped',
  // OMC 4.4's hook lets the agent stop at ralph's max; 5.5's (and 4.15's) extends it and goes on (feeds/attention).
  'max iterations reached',
  'max reached, OMC extends it (+10)',
  // …unless OMC's hard max is reached too: its hook switches the loop off (store/hard-max.ts).
  'max reached, OMC switches it off (hard max)',
  'max extended by OMC',
] as const;
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
        claudeCommand: z
          .string()
          .min(1)
          .max(1000)
          .refine(
            (c) => !/[\u0000-\u001f\u007f-\u009f]/.test(c),
            'holds a control character (an escape, a tab, a line break): it is typed into a terminal, so it is not used',
          )
          .refine(
            (c) => cleanLine(c) === c,
            'holds bidi controls, line separators or characters whose width terminals dispute: what runs would not read as shown',
          )
          .optional(),
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
  /**
   * One line: the file, each bad field and what is wrong, what was left out for it, and that push is off when
   * the file's channels are gone with it; null when the whole file is in force.
   */
  error: string | null;
  /** The same line without the file's path in front (for --json's problems, which carry the path apart). */
  reason: string | null;
  /**
   * What is wrong alone, without what this load made of it (the defaults, the parts left out): a process that read
   * the file before and goes on with what it read then says that instead (fleet/config-problems.ts).
   */
  fault: string | null;
  /** The parts left out (`title`, `push.channels.0`), or "(the whole file)": the defaults apply. */
  dropped: string[];
}

/** What `dropped` holds when nothing of the file could be kept. */
const WHOLE_FILE = '(the whole file)';

/** How many bad fields the one line names before "and N more" (doctor and the message line show one line). */
const NAMED_ISSUES = 3;
/** How many left-out parts it names (a file of a thousand unknown keys is still one line). */
const NAMED_PARTS = 8;

const hadPush = (raw: unknown): boolean => {
  const push = (raw as { push?: { channels?: unknown; reuseOmc?: unknown } } | null)?.push;
  return (Array.isArray(push?.channels) && push.channels.length > 0) || push?.reuseOmc === true;
};
const hasPush = (c: OmcTopConfig): boolean => (c.push?.channels?.length ?? 0) > 0 || c.push?.reuseOmc === true;

/** The parts a file's bad fields left out, as one line names them (at most NAMED_PARTS, then "and N more"). */
export const partsShown = (parts: readonly string[]): string =>
  parts.length > NAMED_PARTS
    ? `${parts.slice(0, NAMED_PARTS).join(', ')} and ${parts.length - NAMED_PARTS} more`
    : parts.join(', ');

/** Whether a load kept nothing of the file (not JSON, not read, not an object): the defaults, not its parts. */
export const keptNothing = (loaded: LoadedConfig): boolean => loaded.dropped.includes(WHOLE_FILE);

export function loadConfig(file = configPath()): LoadedConfig {
  return configOfRead(file, readConfigText(file));
}

/** What one read of the file (the safe read path's answer) makes of it: loadConfig, and a process that watches it. */
export function configOfRead(file: string, r: ReadResult): LoadedConfig {
  const failed = (fault: string, outcome: string, config: OmcTopConfig, dropped: string[]): LoadedConfig => {
    // Field names and messages come shown by every character (drop-invalid.ts): cleanLine has nothing left to
    // remove there, and keeps the file's path and V8's words to one line.
    const clean = cleanLine(`${fault} ${outcome}`);
    return {
      config,
      path: file,
      error: `${cleanLine(shownPath(file))}: ${clean}`,
      reason: clean,
      fault: cleanLine(fault),
      dropped,
    };
  };
  // The defaults have no push channel: a process that was to push says so.
  const whole = (why: string) => failed(why, '(using the defaults; push is OFF)', {}, [WHOLE_FILE]);
  const ok = (config: OmcTopConfig): LoadedConfig => ({
    config,
    path: file,
    error: null,
    reason: null,
    fault: null,
    dropped: [],
  });
  if (!r.ok) {
    if (r.code === 'missing') return ok({});
    return whole(r.message);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(r.text);
  } catch {
    // Where, never V8's words: they quote the text around the fault, and a token without its quotes is one.
    return whole(`not valid JSON: ${jsonProblem(r.text) ?? 'not read as JSON'}`);
  }
  const pushBefore = hadPush(raw);
  const kept = parseKeepingValid(ConfigSchema, raw);
  if (!kept.ok) return whole(`${kept.whole.field}: ${kept.whole.message}`);
  if (kept.dropped.length === 0) return ok(kept.data);
  const named = kept.dropped.slice(0, NAMED_ISSUES).map((d) => `${d.field}: ${d.message}`);
  const more = kept.dropped.length - named.length;
  const parts = [...new Set(kept.dropped.map((d) => d.dropped))];
  const pushOff = pushBefore && !hasPush(kept.data) ? '; push is OFF (no channel left)' : '';
  return failed(
    `${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
    `(left out: ${partsShown(parts)}${pushOff}; the rest of the file applies)`,
    kept.data,
    parts,
  );
}

/**
 * The line a process without a message line says about the config file (serve and watch on stderr after their
 * name, the serve page above its content): null when the whole file is in force.
 */
export const configLine = (loaded: LoadedConfig): string | null =>
  loaded.error === null ? null : `config: ${loaded.error}`;

/** `--notify=bell,osc,tmux` (or `none`). */
export function parseChannels(value: string): Channel[] | string {
  if (value === 'none') return [];
  const out: Channel[] = [];
  for (const part of value.split(',').map((s) => s.trim())) {
    if (!(CHANNELS as readonly string[]).includes(part)) {
      return `--notify: unknown channel ${shownArg(part)} (bell, osc, tmux or none)`;
    }
    out.push(part as Channel);
  }
  return out;
}
