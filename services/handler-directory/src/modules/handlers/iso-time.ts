// Times as the API shows them: ISO 8601 in UTC with milliseconds, the text of toISOString().
// V8's toISOString costs about 1.4 µs a call (measured, Node 20), and lists and exports show two
// to four times per handler (the CSV export of 100,000 handlers spent 8 % of its CPU there); the
// same text from the UTC parts costs about a third of that. Years outside 1000–9999 (written
// with a sign and six digits there) and invalid dates (a RangeError) are left to toISOString.
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** `date.toISOString()`, e.g. 2026-11-28T19:40:06.327Z. */
export function isoTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${three(date.getUTCMilliseconds())}Z`;
}
