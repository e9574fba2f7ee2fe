// What the user typed into a form outlives the view that shows it: switching tabs unmounts a view,
// and a reload starts the page again. Each form keeps its fields in the page's sessionStorage under
// its own key (per tab and window, gone when it closes), read once when the view mounts.
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';

const PREFIX = 'ssdprof.form.v1.';

function read<T>(key: string, initial: T): T {
  try {
    const stored = window.sessionStorage.getItem(PREFIX + key);
    if (stored === null) return initial;
    const value = JSON.parse(stored) as unknown;
    // a form that has gained a field since it was kept takes that field's initial value
    if (isRecord(initial) && isRecord(value)) return { ...initial, ...value };
    // a field that starts empty (null) takes what was kept; others only a value of their own type
    return initial === null || typeof value === typeof initial ? (value as T) : initial;
  } catch {
    return initial; // storage refused (private mode) or a value that is no longer JSON
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** useState whose value is kept for the page's session under `key`. */
export function useKept<T>(key: string, initial: T | (() => T)): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState<T>(
    () => read(key, typeof initial === 'function' ? (initial as () => T)() : initial));
  useEffect(() => {
    try {
      window.sessionStorage.setItem(PREFIX + key, JSON.stringify(value));
    } catch {
      // storage full or refused: the form still works, it is only not kept
    }
  }, [key, value]);
  return [value, setValue];
}

/** What a view shows (a stored test, by its id) kept for the session: when the view mounts again
 *  (a tab switch, a reload) it is asked for again through `reopen`. */
export function useReopened(key: string, shownId: number | null, reopen: (id: number) => void): void {
  const [id, setId] = useKept<number | null>(key, null);
  useEffect(() => {
    if (shownId !== null) setId(shownId);
  }, [shownId, setId]);
  const atMount = useRef({ id, reopen });
  useEffect(() => {
    const { id: kept, reopen: ask } = atMount.current;
    if (kept !== null) ask(kept);
  }, []);
}
