/// <reference types="vite/client" />
import { render } from 'preact';
import { Finder } from './finder';

const root = document.getElementById('finder');
if (root) render(<Finder />, root);

// The service worker (sw.js, written by vite.config.ts) keeps the finder's own files for the next
// visit and for no network at all; it never answers the API. Registered once the page has loaded,
// so its downloads do not compete with the first search; not in the dev server (no sw.js there).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  addEventListener(
    'load',
    () => {
      navigator.serviceWorker.register(`${import.meta.env.BASE_URL}sw.js`).catch(() => undefined);
    },
    { once: true },
  );
}
