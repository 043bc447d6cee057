// web-kit's useDownload over the shop's calls, in the shop's words: an export's file fetched with
// the token and saved, busy while it comes, its status line and its failure's text.
import { useDownload, type Call } from '@dogshop/web-kit';
import { outcome } from './api';

export function useExport() {
  const kit = useDownload({
    preparing: 'Preparing the export …',
    saved: (name) => `Export saved: ${name}`,
  });
  /** Fetches `request`'s file; saved as the answer names it, else `fallback(today)`. */
  const download = (request: () => Call<Blob>, fallback: (day: string) => string) =>
    kit.download(() => outcome(request()), fallback);
  return { ...kit, download };
}
