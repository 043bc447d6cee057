// The run's one Chromium for the page tests, started and stopped by the Jest global setup and
// teardown; browser.ts's launchChromium connects to it.
import { sharedChromium, type BrowserLanguage } from '@dogshop/web-kit/testing';

/** The browser's own UI in English, like the app's texts the tests read. */
export const BROWSER_LANGUAGE: BrowserLanguage = { code: 'en', locale: 'en-GB' };

export const { setup, teardown } = sharedChromium(BROWSER_LANGUAGE);
