/**
 * What every request to `omc-top serve` must pass. DNS rebinding: the Host
 * header must name the address we listen on, a loopback literal or a name the
 * user gave (a page on evil.example resolved to 127.0.0.1 sends Host:
 * evil.example; `allowedHosts`). Cross-site requests: an Origin, when
 * present, must be our own; actions must carry the token (constant-time
 * compare) in a header, which a cross-site form or image cannot set, and a
 * JSON body, which a cross-site fetch cannot send without a preflight we
 * never answer (no CORS headers at all).
 */
import crypto from 'node:crypto';
import net from 'node:net';
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

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether an address (IPv6 without brackets) reaches this machine only: all of 127.0.0.0/8, ::1 in any spelling
 * (and an IPv4-mapped 127.x), and the name localhost. Not a wildcard, not an interface's address.
 */
export function isLoopbackAddress(address: string): boolean {
  if (address.toLowerCase() === 'localhost') return true;
  const v = net.isIP(address);
  return v !== 0 && LOOPBACK.check(address, v === 4 ? 'ipv4' : 'ipv6');
}

/** The machine's interface addresses (Node's list, zone ids dropped: a browser sends none in Host). */
export function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((a) => a.address.replace(/%.*$/, ''));
}

const hostOf = (address: string, port: number) =>
  address.includes(':') && !address.startsWith('[') ? `[${address}]:${port}` : `${address}:${port}`;

/** The loopback literals: a Host naming one is this machine whatever the port (a tunnel's, or none for port 80). */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The Host values serve answers to. DNS rebinding is a page on a name the attacker controls, resolved to this
 * machine: its Host is that name. So a loopback literal (127.0.0.1, localhost, [::1]) passes on any port or none
 * (a browser omits :80; an `ssh -L 9000:…` tunnel sends localhost:9000), and so does a name the user gave
 * (--allow-host): neither is a name an attacker's page can send. The --listen address, and for a wildcard listen
 * (0.0.0.0, ::) the machine's own addresses (`addresses`: IPv4 ones for 0.0.0.0, all for ::), pass with serve's own
 * port (none when it is 80). Everything else is refused.
 */
export interface AllowedHosts {
  /** Host values compared whole: `address:port`. */
  readonly exact: ReadonlySet<string>;
  /** Host names that pass with any port or none. */
  readonly anyPort: ReadonlySet<string>;
}

export function allowedHosts(
  listen: string,
  port: number,
  names: readonly string[] = [],
  addresses: readonly string[] = [],
): AllowedHosts {
  const exact = new Set<string>();
  const add = (address: string) => {
    exact.add(hostOf(address, port));
    // What a browser sends for the default port: the address alone.
    if (port === 80) exact.add(hostOf(address, port).replace(/:80$/, ''));
  };
  for (const a of [...LOOPBACK_NAMES, listen.toLowerCase()]) add(a);
  if (isWildcard(listen)) for (const a of addresses) if (listen !== '0.0.0.0' || !a.includes(':')) add(a.toLowerCase());
  const anyPort = new Set(LOOPBACK_NAMES);
  for (const n of names) anyPort.add(n.toLowerCase());
  return { exact, anyPort };
}

/** A Host header's name (an IPv6 address keeps its brackets) and whether what follows it is a port or nothing. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/;

/** Whether a Host value (lowercase) is one serve answers to. */
export function hostAllowed(host: string, hosts: AllowedHosts): boolean {
  if (hosts.exact.has(host)) return true;
  const m = HOST_HEADER.exec(host);
  return m !== null && hosts.anyPort.has(m[1]!);
}

export type Refusal = { status: number; why: string } | null;

/** The 421's words: why, and what the user can do (the page may be reached by a name serve was not told). */
export const UNEXPECTED_HOST =
  'unexpected Host header: omc-top serve answers only to an address it listens on (or a name given with --allow-host)';

export function checkRequest(
  req: http.IncomingMessage,
  hosts: AllowedHosts,
  token: string,
  needsToken: boolean,
): Refusal {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hostAllowed(host, hosts)) return { status: 421, why: UNEXPECTED_HOST };
  // An Origin must be the page's own: the Host this request came for (which passed), or serve's own address.
  const origin = req.headers.origin;
  const originHost = origin?.replace(/^https?:\/\//, '').toLowerCase();
  if (originHost !== undefined && originHost !== host && !hosts.exact.has(originHost)) {
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
