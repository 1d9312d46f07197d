/**
 * The channels OMC's own notification settings enable
 * (`<CLAUDE_CONFIG_DIR>/.omc-config.json`, `notifications.telegram`,
 * `.discord`, `.webhook`; field names from OMC 5.5.0, see
 * /work/notes/omc-5.5-surfaces/findings.md §5.2). omc-top only sends to
 * them when the user turns `push.reuseOmc` on; `doctor` says what it found.
 * Read through the safe read path; a bad file is one problem line.
 */
import { readTextSync } from '../../../io/safe-fs/index.js';
import { isObj, parseObj, type Obj } from '../../../io/json.js';
import { PushChannelSchema, type PushChannel } from '../../../config/push-config.js';
import { findClaudeConfigDir } from '../../../store/claude/config-dir.js';

export interface OmcChannels {
  /** The file looked at (for doctor). */
  file: string;
  channels: PushChannel[];
  /** Enabled in OMC's file but not usable here, one line each (no secret in them). */
  skipped: string[];
  problem: string | null;
}

const FILE = '.omc-config.json';

const on = (v: unknown): v is Obj => isObj(v) && v.enabled === true;

export function readOmcChannels(env: NodeJS.ProcessEnv = process.env): OmcChannels {
  const { dir } = findClaudeConfigDir(env);
  const file = `${dir}/${FILE}`;
  const none = (problem: string | null): OmcChannels => ({ file, channels: [], skipped: [], problem });
  const r = readTextSync(dir, FILE, 256 * 1024);
  if (!r.ok) return none(r.code === 'missing' ? null : `${file}: ${r.message}`);
  const root = parseObj(r.text);
  if (!root) return none(`${file}: not a JSON object`);
  const n = root.notifications;
  // OMC itself sends nothing unless `notifications.enabled` is true.
  if (!on(n)) return none(null);
  const candidates: Array<[string, unknown]> = [];
  if (on(n.telegram))
    candidates.push(['telegram', { type: 'telegram', botToken: n.telegram.botToken, chatId: n.telegram.chatId }]);
  if (on(n.discord)) candidates.push(['discord', { type: 'discord', webhookUrl: n.discord.webhookUrl }]);
  if (on(n.webhook)) {
    const headers = isObj(n.webhook.headers) ? n.webhook.headers : undefined;
    candidates.push(['webhook', { type: 'webhook', url: n.webhook.url, ...(headers ? { headers } : {}) }]);
  }
  const channels: PushChannel[] = [];
  const skipped: string[] = [];
  for (const [name, c] of candidates) {
    const parsed = PushChannelSchema.safeParse(c);
    if (parsed.success) channels.push({ ...parsed.data, name: `OMC ${name}` });
    else {
      const issue = parsed.error.issues[0];
      skipped.push(`OMC's ${name}: ${issue?.path.map(String).join('.') || 'entry'}: ${issue?.message ?? 'invalid'}`);
    }
  }
  return { file, channels, skipped, problem: null };
}
