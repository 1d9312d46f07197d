import { useEffect, useRef } from 'react';
import { useStdin } from 'ink';
import { InputDecoder, type InputEvent } from '../terminal/keys.js';
import { routeInput, type RouterEnv } from './router.js';

/**
 * Subscribes once to Ink's raw input stream (the same one useInput uses) and
 * feeds every chunk through our decoder and router. One subscription for the
 * whole app; the handler reads current state from the stores, never from a
 * render closure, so it cannot go stale between renders.
 */
export function useInputRouter(env: RouterEnv): void {
  const envRef = useRef(env);
  envRef.current = env;
  useKeyEvents((ev) => routeInput(ev, envRef.current));
}

/** The same subscription for a view with its own keys (the fleet): every decoded event goes to `onEvent`. */
export function useKeyEvents(onEvent: (ev: InputEvent) => void): void {
  const { setRawMode, isRawModeSupported, internal_eventEmitter } = useStdin() as ReturnType<typeof useStdin> & {
    internal_eventEmitter?: NodeJS.EventEmitter;
  };
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (!isRawModeSupported || !internal_eventEmitter) return;
    setRawMode(true);
    const decoder = new InputDecoder();
    let flushTimer: NodeJS.Immediate | null = null;
    const deliver = (events: ReturnType<InputDecoder['push']>) => {
      for (const ev of events) handler.current(ev);
    };
    const onInput = (chunk: string) => {
      if (flushTimer) clearImmediate(flushTimer);
      flushTimer = null;
      deliver(decoder.push(chunk));
      if (decoder.hasPending) {
        flushTimer = setImmediate(() => {
          flushTimer = null;
          deliver(decoder.flush());
        });
      }
    };
    internal_eventEmitter.on('input', onInput);
    return () => {
      internal_eventEmitter.off('input', onInput);
      if (flushTimer) clearImmediate(flushTimer);
      setRawMode(false);
    };
  }, [isRawModeSupported, internal_eventEmitter, setRawMode]);
}
