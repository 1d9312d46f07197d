import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

export interface TermSize {
  columns: number;
  rows: number;
}

/** Terminal size from the one stdout we render to, kept current on SIGWINCH. */
export function useTerminalSize(): TermSize {
  const { stdout } = useStdout();
  const read = (): TermSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}
