// "Meinen Standort aktualisieren": the phone's position becomes the handler's, which the finder's
// nearest search measures from. Rounded to five decimals (about a metre), as the finder asks.
import { useState } from 'preact/hooks';
import { outcome, type Handler } from '../lib/api';
import { ErrorAlert } from '@dogshop/web-kit';
import { formatPoint, forQuery } from '../lib/format';
import type { Session } from '../lib/session';
import { describeEnd } from './times';

const NOT_DETERMINED =
  'Ihr Standort ließ sich nicht bestimmen. Bitte unter freiem Himmel erneut versuchen.';
/** By GeolocationPositionError code: 1 refused, 2 not determined, 3 too slow. */
const POSITION_PROBLEMS: Record<number, string> = {
  1: 'Ihr Standort ist nicht freigegeben. Erlauben Sie den Standort für diese Seite in den Einstellungen des Browsers und wählen Sie dann erneut „Meinen Standort aktualisieren“.',
  2: NOT_DETERMINED,
  3: 'Die Standortbestimmung dauerte zu lange. Bitte erneut versuchen.',
};
const NO_GEOLOCATION =
  'Dieser Browser kann den Standort nicht bestimmen. Bitte einen anderen Browser verwenden.';

const metres = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 0 });

type Step =
  | { state: 'idle' }
  | { state: 'locating' }
  | { state: 'saving' }
  | { state: 'problem'; message: string }
  | { state: 'error'; message: string }
  | { state: 'saved'; at: Date; accuracy: number };

export function Position(props: {
  session: Session;
  handler: Handler;
  now: Date;
  onSaved: (handler: Handler) => void;
}) {
  const [step, setStep] = useState<Step>({ state: 'idle' });
  const { gps } = props.handler;

  async function save(coords: GeolocationCoordinates) {
    setStep({ state: 'saving' });
    const result = await outcome(
      props.session.api.PUT('/api/users/{id}/gps', {
        params: { path: { id: props.handler._id } },
        body: { lat: forQuery(coords.latitude), lng: forQuery(coords.longitude) },
      }),
    );
    if ('data' in result) {
      props.onSaved(result.data.data);
      setStep({ state: 'saved', at: new Date(), accuracy: coords.accuracy });
    } else {
      setStep({ state: 'error', message: result.message });
    }
  }

  function locate() {
    if (!('geolocation' in navigator)) {
      setStep({ state: 'problem', message: NO_GEOLOCATION });
      return;
    }
    setStep({ state: 'locating' });
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => void save(coords),
      (problem) =>
        setStep({
          state: 'problem',
          message: POSITION_PROBLEMS[problem.code] ?? NOT_DETERMINED,
        }),
      // Where the handler stands now, as exactly as the phone can tell (it is his listing).
      { enableHighAccuracy: true, timeout: 30_000, maximumAge: 60_000 },
    );
  }

  // One live region: progress, the refused position (as a notice), or what was saved and when.
  const [status, statusClass] =
    step.state === 'locating'
      ? ['Standort wird ermittelt …', 'status']
      : step.state === 'saving'
        ? ['Standort wird gespeichert …', 'status']
        : step.state === 'problem'
          ? [step.message, 'notice']
          : step.state === 'saved'
            ? [
                `Gespeichert ${describeEnd(step.at.toISOString(), props.now)}, auf etwa ${metres.format(step.accuracy)} m genau.`,
                'status',
              ]
            : ['', 'status'];

  return (
    <section class="panel" aria-labelledby="standort">
      <h2 id="standort">Standort</h2>
      <p>
        {gps ? (
          <>
            Gespeicherter Standort: <strong>{formatPoint(gps)}</strong>
          </>
        ) : (
          'Noch kein Standort gespeichert.'
        )}
      </p>
      <p class={statusClass} role="status">
        {status}
      </p>
      <ErrorAlert text={step.state === 'error' ? step.message : undefined} />
      <button
        type="button"
        class="wide"
        onClick={locate}
        disabled={step.state === 'locating' || step.state === 'saving'}
      >
        Meinen Standort aktualisieren
      </button>
    </section>
  );
}
