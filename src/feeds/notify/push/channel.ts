/**
 * One push channel as the sender uses it: a label safe to print (no token,
 * no topic, no webhook path), the secrets to redact from anything said about
 * it, and the HTTP request that carries a message.
 */
import type { PushChannel } from '../../../config/push-config.js';
import { shownExactly } from '../../../io/shown-exactly.js';

export interface PushMessage {
  project: string;
  /** Claude's name for the session and its tmux window, else the short session id; null for a team or file. */
  session: string | null;
  /** What is waited on, in one line. */
  waitingOn: string;
}

export interface PushRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface ResolvedChannel {
  label: string;
  /** Where it came from: the omc-top config file or OMC's `.omc-config.json`. */
  source: 'config' | 'omc';
  secrets: string[];
  request(m: PushMessage): PushRequest;
}

export const TELEGRAM_API = 'https://api.telegram.org';

/** One line naming project, session and what is waited on; nothing else. */
export function messageText(m: PushMessage): string {
  return `${m.project}${m.session ? ` · ${m.session}` : ''}: ${m.waitingOn}`;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return '?';
  }
};

/** A URL's path and query are secrets (an ntfy topic, a webhook token); the origin is not. */
function urlSecrets(url: string): string[] {
  try {
    const u = new URL(url);
    const rest = `${u.pathname}${u.search}`;
    const parts = u.pathname.split('/').filter((p) => p.length >= 6);
    return [url, rest.length > 1 ? rest : '', ...parts, ...[...u.searchParams.values()].filter((v) => v.length >= 4)];
  } catch {
    return [url];
  }
}

const json = { 'content-type': 'application/json' };

function rebase(url: string, base: string | undefined): string {
  if (!base) return url;
  const u = new URL(url);
  return `${base.replace(/\/+$/, '')}${u.pathname}${u.search}`;
}

export function resolveChannel(c: PushChannel, source: ResolvedChannel['source'] = 'config'): ResolvedChannel {
  // The name is the user's word for the channel: shown by every character (an escape reads ␛), never cut.
  const named = (kind: string, where: string) => (c.name ? `${kind} "${shownExactly(c.name)}"` : `${kind} (${where})`);
  switch (c.type) {
    case 'ntfy':
      return {
        label: named('ntfy', hostOf(c.url)),
        source,
        secrets: [...urlSecrets(c.url), ...(c.token ? [c.token] : [])],
        request: (m) => ({
          url: c.url,
          headers: {
            'content-type': 'text/plain; charset=utf-8',
            title: `omc-top: ${m.project}`.replace(/[^\x20-\x7e]/g, '?'),
            tags: 'bell',
            ...(c.token ? { authorization: `Bearer ${c.token}` } : {}),
          },
          body: messageText(m),
        }),
      };
    case 'webhook':
      return {
        label: named('webhook', hostOf(c.url)),
        source,
        secrets: [...urlSecrets(c.url), ...Object.values(c.headers ?? {}).filter((v) => v.length >= 4)],
        request: (m) => ({
          url: c.url,
          headers: { ...(c.headers ?? {}), ...json },
          body: JSON.stringify({
            source: 'omc-top',
            project: m.project,
            session: m.session,
            waiting_on: m.waitingOn,
            text: messageText(m),
          }),
        }),
      };
    case 'telegram': {
      const base = (c.apiBase ?? TELEGRAM_API).replace(/\/+$/, '');
      return {
        label: named('telegram', hostOf(base)),
        source,
        secrets: [c.botToken, `bot${c.botToken}`],
        request: (m) => ({
          url: `${base}/bot${c.botToken}/sendMessage`,
          headers: json,
          body: JSON.stringify({ chat_id: c.chatId, text: messageText(m) }),
        }),
      };
    }
    case 'discord': {
      const url = rebase(c.webhookUrl, c.apiBase);
      return {
        label: named('discord', hostOf(url)),
        source,
        secrets: [...urlSecrets(c.webhookUrl), ...urlSecrets(url)],
        request: (m) => ({
          url,
          headers: json,
          // No mentions: a message about a session must never ping anyone by accident.
          body: JSON.stringify({ content: messageText(m), allowed_mentions: { parse: [] } }),
        }),
      };
    }
  }
}

/** Every secret of every channel replaced by "…"; also any Telegram-token-shaped text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].filter((x) => x.length >= 4).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join('…');
  }
  return out.replace(/\b\d{5,}:[A-Za-z0-9_-]{20,}\b/g, '…');
}
