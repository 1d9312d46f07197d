/**
 * Sends push messages without ever holding up the monitor: `send` only
 * queues. Each channel has its own small queue and one request in flight;
 * a request has a timeout; a failure that may pass (timeout, network, 429,
 * 5xx) is tried again after a growing pause, a bounded number of times; then
 * one problem line names the channel and the HTTP status. A request that
 * timed out may have arrived (the server may have read it and be slow to
 * answer): it is not tried again at once, and a message is sent to a channel
 * that left it unanswered twice at most, whoever asks again (the ledger's
 * retries): at least once, never a dozen times. Every line said
 * about a channel is redacted (no token, topic or webhook path). `send` says
 * afterwards whether the message was taken (a channel answered 2xx), so that
 * the push ledger counts a message pushed only then (leased-push.ts).
 */
import { cleanLine } from '../../../io/sanitize.js';
import { redact, type PushMessage, type ResolvedChannel } from './channel.js';

export interface SenderOptions {
  timeoutMs?: number;
  retries?: number;
  /** The first pause before a retry; it doubles each time (default 1000). */
  backoffMs?: number;
  /** A problem line (redacted, control bytes removed). */
  onProblem?(line: string): void;
  /** A message went out on a channel (doctor --test-push says so). */
  onSent?(label: string): void;
}

export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_RETRIES = 2;
/** Messages waiting per channel; beyond it the oldest is dropped (a channel that is down for hours). */
const QUEUE_MAX = 20;
/**
 * How many times one message is sent to a channel that left it unanswered (timed out): it may have arrived each
 * time, so the first try and one more (in case it did not), never more.
 */
export const UNANSWERED_SENDS = 2;
/** Messages remembered per channel as unanswered (the ledger keeps at most 16 due: room for them all). */
const UNANSWERED_KEEP = 64;

/**
 * What became of one message on all channels: `taken` as soon as one channel answered 2xx (the phone has it);
 * else, once every channel gave up, `may-pass` when a failure might pass (network, 429, 5xx, a queue overflow, a
 * first timeout), `refused` when sending it again is of no use on any channel: each refused it outright (another 4xx,
 * a redirect: the same request would be refused again) or left it unanswered as often as it is sent (it may have
 * arrived: UNANSWERED_SENDS).
 */
export type Delivery = 'taken' | 'may-pass' | 'refused';

export interface Outcome {
  label: string;
  ok: boolean;
  /** "HTTP 200", "HTTP 500", "no answer within 5000 ms: it may have arrived", "connection refused". */
  detail: string;
  /** The request timed out without an answer: it may have arrived. */
  unanswered?: boolean;
}

/** How one channel answered one message. */
interface ChannelAnswer {
  label: string;
  ok: boolean;
  /** Worth sending again later (a failure that may pass). */
  retry: boolean;
  /** Its part of the message's one problem line (redacted, cleaned); null when it took the message. */
  said: string | null;
}

/** A queued message and who wants to hear how it went. */
interface Queued {
  m: PushMessage;
  answered?(a: ChannelAnswer): void;
}

class ChannelQueue {
  private readonly queue: Queued[] = [];
  private running: Promise<void> | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private disposed = false;
  dropped = 0;
  /** A message (by its words) → how many times this channel left it unanswered. */
  private readonly unanswered = new Map<string, number>();

  constructor(
    readonly channel: ResolvedChannel,
    private readonly opts: Required<Pick<SenderOptions, 'timeoutMs' | 'retries' | 'backoffMs'>> & SenderOptions,
  ) {}

  push(q: Queued): void {
    if (this.disposed) return;
    if (this.queue.length >= QUEUE_MAX) {
      this.queue
        .shift()
        ?.answered?.(
          this.answer(false, true, `not delivered to ${this.channel.label}: dropped (${QUEUE_MAX} messages waiting)`),
        );
      this.dropped++;
    }
    this.queue.push(q);
    if (!this.running) this.running = this.drain().finally(() => (this.running = null));
  }

  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    for (let q = this.queue.shift(); q && !this.disposed; q = this.queue.shift()) {
      const key = JSON.stringify(q.m);
      const before = this.unanswered.get(key) ?? 0;
      // Sent as often as may be and never answered: it may have arrived each time; said when the last one went.
      if (before >= UNANSWERED_SENDS) {
        q.answered?.(
          this.answer(
            false,
            false,
            `${this.channel.label}: not sent again (no answer ${before} times: it may have arrived)`,
          ),
        );
        continue;
      }
      const out = await this.deliver(q.m);
      // Disposed meanwhile (the process is ending): nothing is said, and the ledger keeps the item due.
      if (this.disposed) return;
      if (out.ok) this.unanswered.delete(key);
      else if (out.unanswered) this.noteUnanswered(key, before + 1);
      const last = out.unanswered && before + 1 >= UNANSWERED_SENDS;
      if (out.ok) this.opts.onSent?.(out.label);
      // Its part of the message's line (PushSender.send says it once every channel answered): a timeout may have
      // arrived; any other failure did not.
      const said = out.ok
        ? null
        : out.unanswered
          ? `${out.label}: ${out.detail}${last ? ` (sent ${before + 1} times: not sent there again)` : ''}`
          : `not delivered to ${out.label}: ${out.detail}`;
      q.answered?.(this.answer(out.ok, out.retry && !last, said));
    }
  }

  private answer(ok: boolean, retry: boolean, said: string | null): ChannelAnswer {
    return {
      label: this.channel.label,
      ok,
      retry,
      said: said === null ? null : cleanLine(redact(said, this.channel.secrets)),
    };
  }

  private noteUnanswered(key: string, times: number): void {
    this.unanswered.delete(key);
    this.unanswered.set(key, times);
    if (this.unanswered.size > UNANSWERED_KEEP) this.unanswered.delete(this.unanswered.keys().next().value as string);
  }

  async deliver(m: PushMessage): Promise<Outcome & { retry: boolean }> {
    let last: Outcome & { retry: boolean } = { label: this.channel.label, ok: false, detail: 'not sent', retry: true };
    for (let attempt = 0; attempt <= this.opts.retries && !this.disposed; attempt++) {
      if (attempt > 0) await this.pause(this.opts.backoffMs * 2 ** (attempt - 1));
      if (this.disposed) break;
      const r = await attemptOnce(this.channel, m, this.opts.timeoutMs);
      last = { ...r, detail: attempt > 0 && !r.ok ? `${r.detail} (after ${attempt + 1} tries)` : r.detail };
      // A timeout is not tried again at once: it may have arrived, and a slow server would get it each time.
      if (r.ok || !r.retry || r.unanswered) break;
    }
    return last;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      t.unref?.();
      this.timers.add(t);
    });
  }

  dispose(): void {
    this.disposed = true;
    this.queue.length = 0;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** One HTTP request with its timeout; never throws. */
export async function attemptOnce(
  channel: ResolvedChannel,
  m: PushMessage,
  timeoutMs: number,
): Promise<Outcome & { retry: boolean }> {
  const label = channel.label;
  try {
    const req = channel.request(m);
    const res = await fetch(req.url, {
      method: 'POST',
      headers: req.headers,
      body: req.body,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The body is not needed: release the connection.
    await res.body?.cancel().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { label, ok, detail: `HTTP ${res.status}`, retry: res.status === 429 || res.status >= 500 };
  } catch (e) {
    const { detail, retry, unanswered } = failureOf(e as FetchError, timeoutMs);
    return { label, ok: false, detail: redact(detail, channel.secrets), retry, ...(unanswered ? { unanswered } : {}) };
  }
}

type FetchError = Error & { cause?: { code?: string; message?: string } };

/**
 * What a thrown fetch means. Not every TypeError is the network's: a redirect (refused: `redirect: 'error'`, a
 * message must not follow it to another place) and a request fetch would not build (a header or URL with a
 * character HTTP cannot carry; push-config.ts refuses those in the file) are the same on every try: not retried.
 */
function failureOf(err: FetchError, timeoutMs: number): { detail: string; retry: boolean; unanswered?: true } {
  // The request may have reached the server, which may be slow to answer: not "not delivered".
  if (err.name === 'TimeoutError' || err.name === 'AbortError')
    return { detail: `no answer within ${timeoutMs} ms: it may have arrived`, retry: true, unanswered: true };
  if (err.cause?.message === 'unexpected redirect')
    return { detail: 'answered with a redirect (3xx): give the final URL', retry: false };
  if (err.cause?.code === 'UND_ERR_INVALID_ARG' || (err.name === 'TypeError' && err.cause === undefined))
    return {
      detail: 'the request could not be made: a header or the URL holds a character HTTP cannot carry',
      retry: false,
    };
  if (err.cause?.code === 'ECONNREFUSED') return { detail: 'connection refused', retry: true };
  return { detail: err.cause?.code ? `network error (${err.cause.code})` : 'network error', retry: true };
}

/** "a", "a and b", "a, b and c". */
const andList = (xs: readonly string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

export class PushSender {
  private readonly queues: ChannelQueue[];
  private readonly onProblem: SenderOptions['onProblem'];

  constructor(
    readonly channels: readonly ResolvedChannel[],
    opts: SenderOptions = {},
  ) {
    const full = {
      ...opts,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retries: opts.retries ?? DEFAULT_RETRIES,
      backoffMs: opts.backoffMs ?? 1000,
    };
    this.queues = channels.map((c) => new ChannelQueue(c, full));
    this.onProblem = opts.onProblem;
  }

  /**
   * Queues the message on every channel and returns at once; `done` is told later what became of it (never when
   * the sender is disposed first: the process is ending), and may answer what happens next (`sent again in 1 min`),
   * which ends the problem line. Once every channel answered, one line says every channel that failed (a message
   * line shows the last line only: one line per message keeps each failing channel in sight) and which took it.
   */
  send(m: PushMessage, done?: (d: Delivery) => unknown): void {
    let left = this.queues.length;
    let told = false;
    let mayPass = false;
    let next: string | null = null;
    const answers: ChannelAnswer[] = [];
    const answered = (a: ChannelAnswer) => {
      left--;
      answers.push(a);
      mayPass ||= a.retry;
      if (!told && (a.ok || left === 0)) {
        told = true;
        const words = done?.(a.ok ? 'taken' : mayPass ? 'may-pass' : 'refused');
        next = typeof words === 'string' ? words : null;
      }
      if (left === 0) this.say(answers, next);
    };
    for (const q of this.queues) q.push({ m, answered });
  }

  /** The message's one line: each channel that failed, then which took it, else what happens next. */
  private say(answers: readonly ChannelAnswer[], next: string | null): void {
    const failed = answers.filter((a) => a.said !== null).map((a) => a.said as string);
    if (failed.length === 0) return;
    const took = answers.filter((a) => a.ok).map((a) => a.label);
    const tail = took.length > 0 ? `; ${andList(took)} took it` : next ? `; ${next}` : '';
    this.onProblem?.(`push: ${failed.join('; ')}${tail}`);
  }

  /** Resolves when every queue is empty (tests, doctor). */
  async idle(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.idle()));
  }

  dispose(): void {
    for (const q of this.queues) q.dispose();
  }
}
