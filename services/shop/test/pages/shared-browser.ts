// The run's one Chromium for the page tests, started and stopped by the Jest global setup and
// teardown (web-kit's startSharedChromium); browser.ts's launchChromium connects to it.
import { startSharedChromium, type BrowserLanguage } from '@dogshop/web-kit/testing';

/** The browser's own UI in English, like the app's texts the tests read. */
export const BROWSER_LANGUAGE: BrowserLanguage = { code: 'en', locale: 'en-GB' };

type Shared = { __shopChromium?: { close: () => Promise<void> } };

export async function setup(): Promise<void> {
  (globalThis as Shared).__shopChromium = await startSharedChromium(BROWSER_LANGUAGE);
}

export async function teardown(): Promise<void> {
  await (globalThis as Shared).__shopChromium?.close();
}
