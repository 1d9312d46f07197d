/**
 * Colours by meaning, not by name. With NO_COLOR (https://no-color.org), FORCE_COLOR=0, TERM=dumb or --no-color
 * every colour is dropped and meaning is carried by text, bold and inverse video alone.
 */
import chalk from 'chalk';
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

/**
 * The colour level chalk (and Ink, which styles through it) took from the terminal and the settings as it loaded,
 * before `keepStyles` raised it: 0 for FORCE_COLOR=0, TERM=dumb, --no-color or a stdout that is not a terminal.
 */
const LEVEL_FOUND = chalk.level;

/** Monochrome when asked (NO_COLOR) or when the terminal is taken to have no colour (chalk's level 0). */
export function pickTheme(env: NodeJS.ProcessEnv = process.env, level: number = LEVEL_FOUND): Theme {
  return (env.NO_COLOR !== undefined && env.NO_COLOR !== '') || level === 0 ? monoTheme : colorTheme;
}

/**
 * The theme of a full screen. Bold and inverse video are not colours, and they carry meaning the theme does not (the
 * selected row; a text field's cursor, the terminal's own being hidden): chalk's level 0 drops every style with
 * the colours, so a full screen raises it to 1. The monochrome theme picked there asks for no colour, so the
 * level only lets bold, inverse and dim through.
 */
export function screenTheme(env: NodeJS.ProcessEnv = process.env): Theme {
  const theme = pickTheme(env);
  if (chalk.level === 0) chalk.level = 1;
  return theme;
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
