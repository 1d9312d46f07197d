import { useCallback, useRef, useSyncExternalStore } from 'react';
import { useStdout } from 'ink';

export interface TermSize {
  columns: number;
  rows: number;
}

/**
 * Terminal size from the one stdout we render to, read as the frame renders (not kept in state from the last
 * SIGWINCH): a re-render forced at the moment the terminal resizes (terminal/full-screen.tsx) draws at the new size.
 */
export function useTerminalSize(): TermSize {
  const { stdout } = useStdout();
  const last = useRef<TermSize>({ columns: 0, rows: 0 });
  const subscribe = useCallback(
    (onChange: () => void) => {
      stdout.on('resize', onChange);
      return () => {
        stdout.off('resize', onChange);
      };
    },
    [stdout],
  );
  const read = useCallback((): TermSize => {
    const columns = stdout.columns || 80;
    const rows = stdout.rows || 24;
    // The same object while the size holds: useSyncExternalStore re-renders on a new one.
    if (last.current.columns !== columns || last.current.rows !== rows) last.current = { columns, rows };
    return last.current;
  }, [stdout]);
  return useSyncExternalStore(subscribe, read);
}
