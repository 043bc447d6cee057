// The ends a handler picks for his availability, and the words the page says them in. All in the
// phone's time zone: "heute 22:00" is the handler's evening, wherever the server runs.
import type { Handler } from '../lib/api';

/** The quick choices of "bis", and the one with a date and time typed or picked. */
export type EndChoice = 'zwei-stunden' | 'heute' | 'morgen' | 'datum' | 'ohne-ende';

/** Tonight's (or tomorrow night's) end of a day in the field. */
const EVENING_HOUR = 22;

const time = new Intl.DateTimeFormat('de-DE', { hour: '2-digit', minute: '2-digit' });
const weekday = new Intl.DateTimeFormat('de-DE', { weekday: 'long' });
const longDate = new Intl.DateTimeFormat('de-DE', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** Calendar days from `now`'s day to `date`'s (rounded: a DST day has 23 or 25 hours). */
function daysBetween(now: Date, date: Date): number {
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((day(date) - day(now)) / 86_400_000);
}

/**
 * An end as a handler says it: `heute, 22:00 Uhr`, `morgen, 22:00 Uhr`, `Sonntag, 20:00 Uhr`
 * within the week, else `Sonntag, 6. Dezember 2026, 20:00 Uhr`.
 */
export function describeEnd(iso: string, now: Date): string {
  const date = new Date(iso);
  const days = daysBetween(now, date);
  const clock = `${time.format(date)} Uhr`;
  if (days === 0) return `heute, ${clock}`;
  if (days === 1) return `morgen, ${clock}`;
  if (days > 1 && days < 7) return `${weekday.format(date)}, ${clock}`;
  return `${longDate.format(date)}, ${clock}`;
}

/** Whether the public list shows the handler at `now` (the API's rule, `listedAt`). */
export const listedAt = (handler: Handler, now: Date): boolean =>
  handler.available &&
  (handler.availableUntil === null || Date.parse(handler.availableUntil) > now.getTime());

/** `Sie sind verfügbar bis Sonntag, 20:00 Uhr.` and the other states, for the state line. */
export function availabilityWords(handler: Handler, now: Date): string {
  if (listedAt(handler, now)) {
    return handler.availableUntil === null
      ? 'Sie sind verfügbar, ohne Ende.'
      : `Sie sind verfügbar bis ${describeEnd(handler.availableUntil, now)}.`;
  }
  if (handler.available && handler.availableUntil !== null) {
    return `Sie sind nicht verfügbar: Ihre Verfügbarkeit endete ${describeEnd(handler.availableUntil, now)}.`;
  }
  return 'Sie sind nicht verfügbar.';
}

const atHour = (now: Date, daysAhead: number, hour: number) =>
  new Date(now.getFullYear(), now.getMonth(), now.getDate() + daysAhead, hour, 0, 0, 0);

/** Two hours from now, to the minute (the label shows minutes, the saved end is the same). */
function inTwoHours(now: Date): Date {
  const end = new Date(now.getTime() + 2 * 3_600_000);
  end.setSeconds(0, 0);
  return end;
}

export interface QuickChoice {
  choice: Exclude<EndChoice, 'datum' | 'ohne-ende'>;
  label: string;
  /** What it means now, said exactly. */
  detail: string;
  end: Date;
}

/** The quick ends at `now`: "heute 22:00" only before 22:00 (after it, "morgen 22:00" is there). */
export function quickChoices(now: Date): QuickChoice[] {
  const twoHours = inTwoHours(now);
  const tonight = atHour(now, 0, EVENING_HOUR);
  const tomorrow = atHour(now, 1, EVENING_HOUR);
  const choices: QuickChoice[] = [
    {
      choice: 'zwei-stunden',
      label: '2 Stunden',
      detail: `bis ${describeEnd(twoHours.toISOString(), now)}`,
      end: twoHours,
    },
  ];
  if (tonight > now) {
    choices.push({ choice: 'heute', label: 'heute 22:00 Uhr', detail: '', end: tonight });
  }
  choices.push({
    choice: 'morgen',
    label: 'morgen 22:00 Uhr',
    detail: weekday.format(tomorrow),
    end: tomorrow,
  });
  return choices;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-03-22T20:00`, the value of a `datetime-local` field, in the phone's time zone. */
export const localInputValue = (date: Date): string =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
  `T${pad(date.getHours())}:${pad(date.getMinutes())}`;

/** The instant of a `datetime-local` value (read in the phone's time zone); undefined if empty. */
export function instantOfLocalInput(value: string): Date | undefined {
  if (value === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
