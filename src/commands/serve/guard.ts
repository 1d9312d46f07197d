/**
 * What every request to `omc-top serve` must pass. DNS rebinding: the Host
 * header must name the address we listen on (a page on evil.example resolved
 * to 127.0.0.1 sends Host: evil.example). Cross-site requests: an Origin, when
 * present, must be our own; actions must carry the token (constant-time
 * compare) in a header, which a cross-site form or image cannot set, and a
 * JSON body, which a cross-site fetch cannot send without a preflight we
 * never answer (no CORS headers at all).
 */
import crypto from 'node:crypto';
import type http from 'node:http';

export const TOKEN_HEADER = 'x-omc-top-token';

export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

/** Compares digests so neither length nor content leaks through timing. */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

/** The Host values a browser sends for our address: 127.0.0.1:port, localhost:port, [::1]:port, the --listen address. */
export function allowedHosts(listen: string, port: number): Set<string> {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  hosts.add(listen.includes(':') && !listen.startsWith('[') ? `[${listen}]:${port}` : `${listen}:${port}`);
  return hosts;
}

export type Refusal = { status: number; why: string } | null;

export function checkRequest(
  req: http.IncomingMessage,
  hosts: ReadonlySet<string>,
  token: string,
  needsToken: boolean,
): Refusal {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hosts.has(host)) return { status: 421, why: 'unexpected Host header' };
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.has(origin.replace(/^https?:\/\//, '').toLowerCase())) {
    return { status: 403, why: 'cross-origin request refused' };
  }
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    return { status: 403, why: 'cross-site request refused' };
  }
  if (!needsToken) return null;
  const given = req.headers[TOKEN_HEADER];
  if (!tokenMatches(Array.isArray(given) ? given[0] : given, token))
    return { status: 401, why: 'missing or wrong token' };
  if (req.method === 'POST' && !/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
    return { status: 415, why: 'actions take a JSON body' };
  }
  return null;
}

/** The page's headers: nothing from elsewhere, no framing, no referrer (the token lives in the fragment). */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
} as const;
