// A handler's public card, as the finder lists it and the handler's own page previews it (one
// component, so the preview is exactly what the public sees). Everything from the database is
// rendered as text; the tel:/sms: links are built from the number's digits only.
import type { PublicHandler } from './api';
import { formatDateTime, formatDistance, phoneUri } from './format';

/** The public fields of a handler; `distance_km` only in a nearest search. */
export type CardHandler = Pick<
  PublicHandler,
  'name' | 'phone' | 'type' | 'address' | 'availableUntil' | 'distance_km'
>;

export function HandlerCard({ handler }: { handler: CardHandler }) {
  const tel = phoneUri('tel', handler.phone);
  const sms = phoneUri('sms', handler.phone);
  return (
    <li class="card">
      <h3>{handler.name}</h3>
      <p class="facts">
        {handler.distance_km !== undefined && (
          <span class="distance">{formatDistance(handler.distance_km)}</span>
        )}
        {handler.type && <span class="type">Typ {handler.type}</span>}
      </p>
      {handler.address && <p class="address">{handler.address}</p>}
      {handler.availableUntil && (
        <p class="until">verfügbar bis {formatDateTime(handler.availableUntil)}</p>
      )}
      {tel ? (
        <a class="call" href={tel}>
          Anrufen <span class="number">{handler.phone}</span>
        </a>
      ) : (
        <p>Telefon: {handler.phone}</p>
      )}
      {sms && (
        <a class="sms" href={sms} aria-label={`SMS schreiben an ${handler.name}`}>
          SMS schreiben
        </a>
      )}
    </li>
  );
}
