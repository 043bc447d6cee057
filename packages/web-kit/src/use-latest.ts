// Answers out of order: only the latest request's answer counts. Its own module (not in
// use-resource.ts): the directory's finder uses this alone, and a bundle takes whole modules.
import { useRef } from 'preact/hooks';

/**
 * Answers out of order: `start()` marks a new request and gives back `isLatest()`, true until a
 * later `start()`. For a page whose requests follow actions rather than state (the directory's
 * finder); `useResource` is built on it (and starts anew when its component goes, so an answer
 * after that is dropped too).
 */
export function useLatest(): () => () => boolean {
  const latest = useRef(0);
  return () => {
    const id = ++latest.current;
    return () => id === latest.current;
  };
}
