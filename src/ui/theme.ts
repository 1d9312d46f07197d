/**
 * Colours by meaning, not by name. With NO_COLOR (https://no-color.org) every
 * colour is dropped and meaning is carried by text and inverse video alone.
 */
import { createContext, useContext } from 'react';
import type { ModeStatus } from '../store/sessions/omc-rules.js';

export interface Theme {
  color: boolean;
  accent?: string;
  dim: boolean;
  ok?: string;
  warn?: string;
  error?: string;
  muted?: string;
  status: Record<ModeStatus | 'cancelling' | 'idle', string | undefined>;
}

const colorTheme: Theme = {
  color: true,
  accent: 'cyan',
  dim: true,
  ok: 'green',
  warn: 'yellow',
  error: 'red',
  muted: 'gray',
  status: {
    enforced: 'green',
    paused: 'cyan',
    'not-enforced': 'yellow',
    pending: 'yellow',
    stale: 'yellow',
    finished: 'gray',
    unreadable: 'red',
    cancelling: 'magenta',
    idle: 'gray',
  },
};

const monoTheme: Theme = {
  color: false,
  dim: false,
  status: {
    enforced: undefined,
    paused: undefined,
    'not-enforced': undefined,
    pending: undefined,
    stale: undefined,
    finished: undefined,
    unreadable: undefined,
    cancelling: undefined,
    idle: undefined,
  },
};

export function pickTheme(env: NodeJS.ProcessEnv = process.env): Theme {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== '' ? monoTheme : colorTheme;
}

export const ThemeContext = createContext<Theme>(colorTheme);
export const useTheme = () => useContext(ThemeContext);

/** A line's tone as a colour: the one mapping every view uses. */
export function toneColor(theme: Theme, tone: string | undefined): string | undefined {
  switch (tone) {
    case 'title':
      return theme.accent;
    case 'error':
      return theme.error;
    case 'warn':
    case 'warning':
      return theme.warn;
    case 'ok':
      return theme.ok;
    case 'dim':
    case 'muted':
      return theme.muted;
    default:
      return undefined;
  }
}
