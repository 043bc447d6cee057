// A file the API made (an export) handed to the browser's download. The file is fetched with the
// bearer token (a plain link could not carry it: the token lives in the page's memory only), then
// saved through an object URL and `<a download>`.

/** The file name of a `Content-Disposition` answer when it is a plain name, else `fallback`. */
export function downloadName(disposition: string | null, fallback: string): string {
  const given = disposition?.match(/filename="?([^";]+)"?/)?.[1];
  return given && !/[\\/]/.test(given) ? given : fallback;
}

/** Hands `blob` to the browser's download as `name`. */
export function saveDownload(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
