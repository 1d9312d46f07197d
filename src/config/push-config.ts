/**
 * The push channels of the config file (`push`): where a "needs you" item is
 * sent when the user is away from the terminal. Each entry is validated here;
 * a bad one names its field (config-file.ts turns the first issue into the
 * problem line). Secrets (tokens, webhook and topic URLs) are never part of
 * an error message: zod's messages here name the rule, not the value.
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

const httpUrl = lazyObject(() => z.string().max(2000).refine(isHttpUrl, 'not an http(s) URL (without user:password@)'));
const label = lazyObject(() => z.string().min(1).max(60).optional());
const header = lazyObject(() =>
  z
    .string()
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
      token: z.string().min(1).max(500).optional(),
      name: label,
    }),
    z.strictObject({
      type: z.literal('webhook'),
      /** Receives a JSON POST: {source, project, session, waiting_on, text}. */
      url: httpUrl,
      headers: z.record(header, z.string().max(2000)).optional(),
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
