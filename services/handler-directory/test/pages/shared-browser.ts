// The run's one Chromium for the page tests, started and stopped by the Jest global setup and
// teardown; browser.ts's launchChromium connects to it.
import { sharedChromium, type BrowserLanguage } from '@dogshop/web-kit/testing';

/**
 * The browser's own UI in German, as a German user's: date fields read tt.mm.jjjj, their pickers
 * and the browser's validation texts are German (the context's locale sets the page's language,
 * not the browser's). Shown when Chromium's German resources are installed (Debian:
 * chromium-l10n, which `pnpm screenshots` installs); else English.
 */
export const BROWSER_LANGUAGE: BrowserLanguage = { code: 'de', locale: 'de-DE' };

export const { setup, teardown } = sharedChromium(BROWSER_LANGUAGE);
