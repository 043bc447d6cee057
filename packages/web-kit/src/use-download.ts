// An export's button: the file fetched with the token (see download.ts), busy while it comes, a
// status line (the service's words) and the failure's text to show.
import { useState } from 'preact/hooks';
import type { Outcome } from './api';
import { downloadName, saveDownload } from './download';

export interface DownloadTexts {
  /** While the file is made. */
  preparing: string;
  /** Once it is handed to the browser, as `name`. */
  saved: (name: string) => string;
}

export function useDownload(texts: DownloadTexts) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();

  /**
   * Fetches the file (`request`, one at a time) and saves it under the answer's name, else
   * `fallback(day)` with today's date (YYYY-MM-DD, UTC).
   */
  async function download(
    request: () => Promise<Outcome<Blob>>,
    fallback: (day: string) => string,
  ): Promise<void> {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    setStatus(texts.preparing);
    const result = await request();
    setBusy(false);
    if ('message' in result) {
      setStatus('');
      setError(result.message);
      return;
    }
    const name = downloadName(
      result.response.headers.get('content-disposition'),
      fallback(new Date().toISOString().slice(0, 10)),
    );
    saveDownload(result.data, name);
    setStatus(texts.saved(name));
  }

  return { busy, status, error, download };
}
