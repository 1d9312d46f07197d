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
import os from 'node:os';
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

/** `--listen` on every address of the machine: no Host names it, so the machine's own addresses are what count. */
export const isWildcard = (listen: string): boolean => listen === '0.0.0.0' || listen === '::' || listen === '[::]';

/** The machine's interface addresses (Node's list, zone ids dropped: a browser sends none in Host). */
export function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((a) => a.address.replace(/%.*$/, ''));
}

const hostOf = (address: string, port: number) =>
  address.includes(':') && !address.startsWith('[') ? `[${address}]:${port}` : `${address}:${port}`;

/**
 * The Host values a browser sends for our address: 127.0.0.1:port, localhost:port, [::1]:port, the --listen
 * address, and the names the user gave (--allow-host). A wildcard --listen (0.0.0.0, ::) is reached by the
 * machine's own addresses (`addresses`: IPv4 ones for 0.0.0.0, all for ::), so those are allowed too: a page on
 * another origin still sends its own name and is refused (DNS rebinding).
 */
export function allowedHosts(
  listen: string,
  port: number,
  names: readonly string[] = [],
  addresses: readonly string[] = [],
): Set<string> {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  hosts.add(hostOf(listen, port));
  for (const n of names) hosts.add(`${n.toLowerCase()}:${port}`);
  if (isWildcard(listen))
    for (const a of addresses) if (listen !== '0.0.0.0' || !a.includes(':')) hosts.add(hostOf(a.toLowerCase(), port));
  return hosts;
}

export type Refusal = { status: number; why: string } | null;

/** The 421's words: why, and what the user can do (the page may be reached by a name serve was not told). */
export const UNEXPECTED_HOST =
  'unexpected Host header: omc-top serve answers only to an address it listens on (or a name given with --allow-host)';

export function checkRequest(
  req: http.IncomingMessage,
  hosts: ReadonlySet<string>,
  token: string,
  needsToken: boolean,
): Refusal {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hosts.has(host)) return { status: 421, why: UNEXPECTED_HOST };
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
