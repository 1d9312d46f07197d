/**
 * `omc-top serve [--port N] [--listen ADDR] [--all] [--host user@box]…`:
 * the fleet and the inbox on a small web page, for a phone over the user's
 * own ssh tunnel. Listens on 127.0.0.1 only unless `--listen` names another
 * address (then it warns, unless that is a loopback one). Prints the URL with the token once, at start.
 * The push channels of the config file notify from here too (each local
 * root's attention monitor feeds a notifier with no terminal channel).
 */
import { fitHelp } from '../help-width.js';
import { configLine, loadConfig, type OmcTopConfig } from '../../config/config-file.js';
import { pushChannels } from '../../feeds/notify/push/index.js';
import { remoteFeeds } from '../../fleet/push.js';
import { pushForRoots } from '../../feeds/notify/push-roots.js';
import { LocalFleet } from '../../fleet/local.js';
import { RemoteFleet } from '../../fleet/remotes.js';
import { cleanLine } from '../../io/sanitize.js';
import { projectNameOf, type RootResolution } from '../../store/root.js';
import { noRootWords } from '../no-root-words.js';
import type { OmcInstall } from '../../store/omc-install.js';
import { resolveRootAndOmc } from '../../store/omc-root.js';
import { OmcStore } from '../../store/store.js';
import { parseArgs, UsageError, rootFlag } from '../args.js';
import { fleetHostSpecs, takeRepeated } from '../fleet-args.js';
import net from 'node:net';
import { interfaceAddresses, isLoopbackAddress, isWildcard, newToken } from './guard.js';
import { startServer } from './server.js';
import { fleetSource, singleSource, type ServeSource } from './source.js';
import { printErr, printOut } from '../../io/output.js';
import { shownName } from '../../io/shown-path.js';
import { shownArg } from '../../io/shown-arg.js';
import { pauseAfterFirstLineForTest } from '../test-pause.js';
import { refuseOneProjectFlags } from '../fleet-flags.js';
import { docPath } from '../../io/doc-path.js';

export const SERVE_USAGE = `Usage: omc-top serve [--port N] [--listen ADDR] [--allow-host NAME]… [--all] [--host user@box]… [--cwd DIR | --root DIR] [--readonly] [--poll]

A small web page with the fleet and what needs you, live, for a phone browser
over your own ssh tunnel:  ssh -L 8377:127.0.0.1:8377 host  (see ${docPath('reach.md')}).
Prints the URL with a fresh token; actions need it.
  --port N        the port (default 8377; 0 picks a free one)
  --listen ADDR   listen on ADDR instead of 127.0.0.1 (::1 or [::1] for IPv6; an address that is not loopback
                  warns: anyone who reaches it can try the token); 0.0.0.0 or :: answers to this machine's addresses
  --allow-host NAME  a name or address this machine is reached by (IPv6 with or without brackets; the page
                  answers to it on any port; repeatable); 127.0.0.1, localhost and [::1] are answered to on any
                  port (a tunnel's)
  --all           every project on this machine;  --host user@box  a machine over ssh (repeatable)
  --readonly      show only: every action is refused`;

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = {
  port: 'value',
  listen: 'value',
  all: 'bool',
  cwd: 'value',
  root: 'value',
  readonly: 'bool',
  poll: 'bool',
  help: 'bool',
} as const;

export const DEFAULT_PORT = 8377;

const bracketed = (a: string) => (a.includes(':') && !a.startsWith('[') ? `[${a}]` : a);

/** The machine's addresses another machine may use for a wildcard listen (not loopback, not link-local). */
function outwardAddresses(listen: string): string[] {
  return interfaceAddresses().filter(
    (a) => !isLoopbackAddress(a) && !/^fe80:/i.test(a) && (listen !== '0.0.0.0' || !a.includes(':')),
  );
}

/**
 * Said at start when push is on. What already needs the user when serve starts is not news to it (the monitor's
 * rule too: a state found on disk may be hours old), so it is not pushed; a user who started serve for the phone
 * beside a Claude already waiting must not take the phone's silence for "nothing waits".
 */
export const PUSH_FROM_NOW_LINE =
  'push: only what newly needs you from now on is pushed; what already needs you is on the page, not pushed';

/**
 * Push from serve: one notifier per local root, no terminal channel, under each project's push lease; a
 * `--host` project's items as the fleet view pushes them (fleet/push.ts: the lease is held on that machine).
 */
function pushFrom(source: ServeSource, config: OmcTopConfig, readonly: boolean, err: (s: string) => void): () => void {
  return pushForRoots({
    roots: () => source.roots(),
    feeds: remoteFeeds(source.remote),
    subscribe: (l) => source.subscribe(l),
    config,
    readonly,
    onProblem: (l) => err(`omc-top serve: ${l}\n`),
    onPushing: () => err(`omc-top serve: ${PUSH_FROM_NOW_LINE}\n`),
  });
}

/** A name for the Host header: a DNS name or an address, nothing else (it is compared, never resolved). */
const HOST_NAME = /^(?:[0-9a-z](?:[0-9a-z-]{0,61}[0-9a-z])?)(?:\.[0-9a-z](?:[0-9a-z-]{0,61}[0-9a-z])?)*$/i;

/**
 * The address `--listen` names, as Node listens on it: an IP address (IPv6 with or without the brackets a URL
 * writes, `[::1]`) or a host name; null for anything else.
 */
export function listenAddress(arg: string): string | null {
  const inBrackets = /^\[(.*)\]$/.exec(arg);
  if (inBrackets) return net.isIP(inBrackets[1]!) === 6 ? inBrackets[1]! : null;
  if (net.isIP(arg) !== 0) return arg;
  return arg.length <= 253 && HOST_NAME.test(arg) ? arg : null;
}

/**
 * An `--allow-host` argument as a Host header names it, compared whole (guard.ts hostAllowed): a host name or an
 * IPv4 address lowercased, an IPv6 address in brackets in the form a browser writes it (`[2001:db8::1]`), given with
 * brackets or without; a port after it dropped (a name is answered to on any port). Null: none of these.
 */
export function allowHostName(arg: string): string | null {
  const v6 = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(arg)?.[1] ?? (net.isIP(arg) === 6 ? arg : null);
  if (v6 !== null) {
    // No zone id: a browser sends none in Host.
    if (net.isIP(v6) !== 6 || v6.includes('%')) return null;
    try {
      return new URL(`http://[${v6}]/`).hostname;
    } catch {
      return null;
    }
  }
  const name = arg.replace(/:\d{1,5}$/, '');
  return name.length <= 253 && HOST_NAME.test(name) ? name.toLowerCase() : null;
}

/**
 * The --allow-host argument for a refused Host (its port dropped: a name is answered to on any port), when it is one;
 * an IPv6 address without its brackets (a shell may take `[…]` for a pattern).
 */
function allowHint(host: string): string {
  const name = allowHostName(host);
  return name === null ? '' : ` ${name.replace(/^\[(.*)\]$/, '$1')}`;
}

export async function runServeCommand(argv: readonly string[]): Promise<number> {
  const names = takeRepeated(argv, 'allow-host');
  const hosts = takeRepeated(names.rest, 'host');
  const args = parseArgs(hosts.rest, FLAGS);
  if (args.flags.has('help')) {
    printOut(fitHelp(SERVE_USAGE) + '\n');
    return 0;
  }
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${shownArg(args.positionals[0]!)}`);
  const portText = (args.flags.get('port') as string | undefined) ?? String(DEFAULT_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new UsageError('--port needs a number 0-65535');
  const listenArg = (args.flags.get('listen') as string | undefined) ?? '127.0.0.1';
  const listen = listenAddress(listenArg);
  if (listen === null) throw new UsageError(`--listen needs an address or a host name, not ${shownArg(listenArg)}`);
  // A name is answered to on any port (a tunnel's own), so a port given with it is taken and not needed.
  const allowed = names.values.map((n) => {
    const name = allowHostName(n);
    if (name === null) throw new UsageError(`--allow-host needs a host name or an IP address, not ${shownArg(n)}`);
    return name;
  });
  // A fleet (`--all`, `--host`) shows the config file's `hosts` too, as `omc-top --all` does: the same hosts, the
  // same usage error for a bad --host, one project named twice (`box:/r/shop` and `box:/r/shop/`, a --host and the
  // config's entry) one host, said once on stderr.
  const fleetAsked = args.flags.has('all') || hosts.values.length > 0;
  const loaded = loadConfig();
  const config = loaded.config;
  const { specs, twice } = fleetAsked ? fleetHostSpecs(hosts.values, config.hosts) : { specs: [], twice: null };
  if (twice) printErr(`omc-top serve: ${cleanLine(twice)}\n`);
  if (fleetAsked) refuseOneProjectFlags(args.flags, args.flags.has('all') ? '--all' : '--host');
  const readonly = args.flags.has('readonly');
  const watch = args.flags.has('poll') ? 'poll' : 'auto';
  let source: ServeSource;
  // serve has no message line, and it is what pushes when the user is away: a bad field (and push off with
  // it) is said at start, on stderr, before the address, and on the page (a phone never sees that stderr).
  const configSays = configLine(loaded);
  if (configSays !== null) printErr(`omc-top serve: ${configSays}\n`);
  if (fleetAsked) {
    // The page answers permission requests, so each local store registers as a monitor the hook asks.
    // serve has no message line: a project judged by another OMC now (or read elsewhere) is said on stderr.
    const fleet = new LocalFleet({
      readonly,
      watch,
      local: args.flags.has('all'),
      listenForAnswers: !readonly,
      onOmcChange: (root, words) => printErr(`omc-top serve: ${cleanLine(`${root.label}: ${words}`)}\n`),
    });
    // With push channels, each host's stream takes its project's push lease there for us (fleet/push.ts).
    const remote =
      specs.length > 0
        ? new RemoteFleet(specs, () => fleet.changed(), { pushLease: pushChannels(config).channels.length > 0 })
        : undefined;
    if (remote) fleet.setExtra(() => remote.groups());
    fleet.start();
    remote?.start();
    source = fleetSource(fleet, remote, async () => {
      await Promise.all([remote?.stop(), fleet.close()]);
    });
  } else {
    // The root and the OMC that judges found together, as the monitor finds them: the page's verdicts are its book's.
    const { res, omc, redetect, rootFor, claudeEnv } = resolveRootAndOmc({
      cwd: (args.flags.get('cwd') as string | undefined) ?? process.cwd(),
      rootOverride: rootFlag(args),
    });
    if (!res.exists) {
      printErr(`omc-top serve: ${noRootWords(res)}\n`);
      return 2;
    }
    const open = (at: RootResolution, install: OmcInstall) => {
      const store = new OmcStore({
        root: at.root,
        readonly,
        watch,
        projectDir: at.projectDir,
        rootRule: at.rule,
        omc: install,
        // Looked at again while serve runs: a plugin update re-judges the page's sessions.
        omcRedetect: redetect,
        // The config directory the project's Claudes use (their registry, transcripts and plugin).
        claude: { env: claudeEnv },
        // The page answers permission requests: register as a monitor the hook asks (never under --readonly).
        answers: { listen: true },
      });
      store.start();
      return store;
    };
    // An upgrade whose release keeps the state elsewhere: the page follows it, as the monitor does, and says so.
    source = singleSource(open(res, omc), projectNameOf(res, shownName), process.env, {
      rootFor,
      open,
      said: (words) => printErr(`omc-top serve: ${cleanLine(words)}\n`),
    });
  }
  const token = newToken();
  const err = (s: string) => printErr(cleanLine(s) + '\n');
  let served;
  try {
    served = await startServer({
      source,
      token,
      listen,
      port: Number(portText),
      readonly,
      config: configSays,
      names: allowed,
      // A bug met answering one request: that request is answered 500, serve goes on, and the user hears of it.
      onProblem: (line) => err(`omc-top serve: ${line}`),
      // A page opened by a name or address serve does not answer to: said here, where the user can act on it.
      onRefusedHost: (h) =>
        err(
          `omc-top serve: refused a request for Host ${JSON.stringify(h)}: not an address it listens on${isWildcard(listen) ? ' nor one of this machine’s' : ''}; if that name is this machine’s, give it with --allow-host${allowHint(h)}`,
        ),
    });
  } catch (e) {
    await source.close();
    err(`omc-top serve: cannot listen on ${bracketed(listen)}:${portText}: ${(e as Error).message}`);
    return 1;
  }
  const stopPush = pushFrom(source, config, readonly, (s) => err(s.trimEnd()));
  if (!isLoopbackAddress(listen)) {
    err(
      `omc-top serve: WARNING: listening on ${listen}, not only this machine: anyone who can reach it can see the page's address and try the token. Prefer the default (127.0.0.1) and an ssh tunnel.`,
    );
  }
  // Listening before the address is printed: a script that stops serve as soon as it reads it gets a clean exit.
  const done = new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      stopPush();
      void served.close().then(() => source.close().then(() => resolve(0)));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  // A wildcard is no address to open: the page is opened by loopback here, and by the machine's addresses elsewhere.
  const host = isWildcard(listen) ? (listen === '0.0.0.0' ? '127.0.0.1' : '[::1]') : bracketed(listen);
  printOut(`omc-top serve: http://${host}:${served.port}/#${token}\n`);
  const outward = isWildcard(listen) ? outwardAddresses(listen) : [];
  printOut(
    outward.length > 0
      ? `  from another machine: ${outward.map((a) => `http://${bracketed(a)}:${served.port}/`).join(' or ')} with the same #token\n`
      : `  from another machine: ssh -L ${served.port}:${host}:${served.port} <this host>, then open the same URL there\n`,
  );
  pauseAfterFirstLineForTest();
  return done;
}
