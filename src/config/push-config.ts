/**
 * The push channels of the config file (`push`): where a "needs you" item is
 * sent when the user is away from the terminal. Each entry is validated here;
 * a bad one names its field (config-file.ts turns the first issue into the
 * problem line). Secrets (tokens, webhook and topic URLs) are never part of
 * an error message: zod's messages here name the rule, not the value.
 *
 * Every value that goes into an HTTP request's header or URL (a token, a header's name and value, a URL) holds no
 * control character: fetch refuses such a request before it is sent (a token with a newline inside), which the
 * sender could only report as a failure of the network, at every push. So it is a problem of the file, said where
 * the file is read, and that channel is left out. HTTP's whitespace around a value (a paste that took the line's
 * newline with it) is not such a problem: fetch leaves it out of what it sends, and so does this file's reading.
 */
import { z } from 'zod';
import { lazyObject } from '../io/lazy-object.js';

const isHttpUrl = (s: string): boolean => {
  try {
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
  } catch {
    return false;
  }
};

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why a value cannot go into an HTTP header or URL as written (null: it can): a control character (C0, DEL, C1),
 * or a character past U+00FF in a header (a header carries bytes). Names where, never the value (a secret).
 */
export function headerValueProblem(s: string, where: 'header' | 'url' = 'header'): string | null {
  const at = CONTROL.exec(s);
  if (at) {
    const code = at[0].charCodeAt(0);
    const named =
      code === 10
        ? 'a newline'
        : code === 13
          ? 'a carriage return'
          : code === 9
            ? 'a tab'
            : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    return `holds a control character (${named} at character ${at.index + 1})`;
  }
  if (where === 'header') {
    const wide = /[^\u0000-\u00ff]/.exec(s);
    if (wide) return `holds a character an HTTP header cannot carry (past U+00FF, at character ${wide.index + 1})`;
  }
  return null;
}

/** Space, tab, CR and LF around a value: what fetch trims from a header value (and the URL parser from a URL). */
const HTTP_SPACE_AROUND = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * A string that goes into a header (or a URL): HTTP's whitespace around it dropped (the value sent, as before this
 * check), then refused with `headerValueProblem`'s words.
 */
const sendable = (schema: z.ZodString, where: 'header' | 'url' = 'header') =>
  schema
    .overwrite((s) => s.replace(HTTP_SPACE_AROUND, ''))
    .superRefine((s, ctx) => {
      const why = headerValueProblem(s, where);
      if (why) ctx.addIssue({ code: 'custom', message: why, continue: false });
    });

const httpUrl = lazyObject(() =>
  sendable(z.string().max(2000), 'url').refine(isHttpUrl, 'not an http(s) URL (without user:password@)'),
);
const label = lazyObject(() => z.string().min(1).max(60).optional());
const header = lazyObject(() =>
  sendable(z.string())
    .regex(/^[A-Za-z0-9-]{1,100}$/, 'not a header name')
    .refine((h) => !/^(host|content-length|connection|transfer-encoding)$/i.test(h), 'a header omc-top sets itself'),
);

export const PushChannelSchema = lazyObject(() =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('ntfy'),
      /** The topic URL, e.g. https://ntfy.sh/my-secret-topic (the topic is a secret). */
      url: httpUrl,
      /** An access token for a protected topic (sent as a bearer token). */
      token: sendable(z.string().min(1).max(500))
        .refine((t) => t !== '', 'is only whitespace')
        .optional(),
      name: label,
    }),
    z.strictObject({
      type: z.literal('webhook'),
      /** Receives a JSON POST: {source, project, session, waiting_on, text}. */
      url: httpUrl,
      headers: z.record(header, sendable(z.string().max(2000))).optional(),
      name: label,
    }),
    z.strictObject({
      type: z.literal('telegram'),
      botToken: z.string().regex(/^[0-9]+:[A-Za-z0-9_-]+$/, 'not a Telegram bot token (<digits>:<letters>)'),
      chatId: z.union([z.string().regex(/^(-?[0-9]{1,20}|@[A-Za-z0-9_]{1,64})$/, 'not a chat id'), z.number().int()]),
      /** Default https://api.telegram.org (tests point it at a loopback server). */
      apiBase: httpUrl.optional(),
      name: label,
    }),
    z.strictObject({
      type: z.literal('discord'),
      /** https://discord.com/api/webhooks/<id>/<token> */
      webhookUrl: httpUrl,
      /** Replaces the webhook URL's origin (tests point it at a loopback server). */
      apiBase: httpUrl.optional(),
      name: label,
    }),
  ]),
);
export type PushChannel = z.infer<typeof PushChannelSchema>;

export const PushSchema = lazyObject(() =>
  z.strictObject({
    /** The user's own channels. */
    channels: z.array(PushChannelSchema).max(8).optional(),
    /** Also send to the channels OMC's own notification settings enable (`.omc-config.json`); off by default. */
    reuseOmc: z.boolean().optional(),
    /** Per request (default 5000). */
    timeoutMs: z.number().int().min(200).max(60_000).optional(),
    /** Further tries after a failure that may pass (timeout, network, 429, 5xx); default 2. */
    retries: z.number().int().min(0).max(5).optional(),
  }),
);
export type PushConfig = z.infer<typeof PushSchema>;
