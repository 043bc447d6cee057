// The finder: available handlers nearest first, from the browser's position or typed coordinates.
// Everything from the database is rendered as text (JSX children and attribute values, never
// HTML), and the only requests go to the page's own origin.
import { useLatest } from '@dogshop/web-kit';
import { useEffect, useRef, useState } from 'preact/hooks';
import { apiClient, outcome, type PublicHandler } from '../lib/api';
import { CoordinateField } from '../lib/coordinate-field';
import { formatPoint, forQuery, parseCoordinate } from '../lib/format';
import { HandlerCard } from '../lib/handler-card';

const api = apiClient();

/** Handlers per request: the nearest first; "Weitere anzeigen" asks for the next ones. */
const PAGE_SIZE = 20;
/** The radius choices in km; '' is none. */
const RADII = ['', '10', '25', '50', '100', '200'];

interface Point {
  lat: number;
  lng: number;
  from: 'position' | 'typed';
}

type Search =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | {
      state: 'done';
      point: Point;
      radius: string;
      handlers: PublicHandler[];
      nextCursor: string | undefined;
      loadingMore?: boolean;
      moreError?: string;
    };

const POSITION_PROBLEMS: Record<number, string> = {
  1: 'Ihr Standort ist nicht freigegeben. Geben Sie unten Koordinaten ein, oder erlauben Sie den Standort in den Einstellungen des Browsers und wählen Sie „Meinen Standort verwenden“.',
  2: 'Ihr Standort ließ sich nicht bestimmen. Bitte geben Sie unten Koordinaten ein.',
  3: 'Die Standortbestimmung dauerte zu lange. Bitte erneut versuchen oder unten Koordinaten eingeben.',
};
const NO_GEOLOCATION =
  'Dieser Browser kann den Standort nicht bestimmen. Bitte geben Sie unten Koordinaten ein.';

export function Finder() {
  const [search, setSearch] = useState<Search>({ state: 'idle' });
  const [locating, setLocating] = useState(false);
  const [positionProblem, setPositionProblem] = useState<string | undefined>();
  const [radius, setRadius] = useState('');
  const [lat, setLat] = useState('');
  const [lng, setLng] = useState('');
  const [invalid, setInvalid] = useState<{ lat: boolean; lng: boolean }>({
    lat: false,
    lng: false,
  });
  // Answers of a search that another has replaced since are dropped.
  const startSearch = useLatest();
  const radiusNow = useRef('');
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const focusResults = useRef(false);
  const latInput = useRef<HTMLInputElement>(null);
  const lngInput = useRef<HTMLInputElement>(null);

  async function load(point: Point, radiusKm: string, cursor?: string) {
    const isLatest = startSearch();
    setSearch((previous) =>
      cursor && previous.state === 'done'
        ? { ...previous, loadingMore: true, moreError: undefined }
        : { state: 'loading' },
    );
    const result = await outcome(
      api.GET('/api/public/users', {
        params: {
          query: {
            lat: point.lat,
            lng: point.lng,
            limit: PAGE_SIZE,
            ...(radiusKm !== '' && { radius_km: Number(radiusKm) }),
            ...(cursor !== undefined && { cursor }),
          },
        },
      }),
    );
    let next: (previous: Search) => Search;
    if ('data' in result) {
      const { data } = result;
      next = (previous) => ({
        state: 'done',
        point,
        radius: radiusKm,
        handlers:
          cursor && previous.state === 'done' ? [...previous.handlers, ...data.data] : data.data,
        nextCursor: data.next_cursor,
      });
    } else {
      next = failed(result.message);
    }
    if (isLatest()) setSearch(next);

    function failed(message: string) {
      return (previous: Search): Search =>
        cursor && previous.state === 'done'
          ? { ...previous, loadingMore: false, moreError: message }
          : { state: 'error', message };
    }
  }

  function locate() {
    if (!('geolocation' in navigator)) {
      setPositionProblem(NO_GEOLOCATION);
      return;
    }
    setPositionProblem(undefined);
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating(false);
        void load(
          { lat: forQuery(coords.latitude), lng: forQuery(coords.longitude), from: 'position' },
          radiusNow.current,
        );
      },
      (problem) => {
        setLocating(false);
        setPositionProblem(POSITION_PROBLEMS[problem.code] ?? POSITION_PROBLEMS[2]);
      },
      { enableHighAccuracy: false, timeout: 20_000, maximumAge: 120_000 },
    );
  }

  useEffect(locate, []);

  useEffect(() => {
    if (focusResults.current && search.state !== 'loading') {
      focusResults.current = false;
      resultsHeading.current?.focus();
    }
  }, [search]);

  function searchTyped(event: SubmitEvent) {
    event.preventDefault();
    const latitude = parseCoordinate(lat);
    const longitude = parseCoordinate(lng);
    setInvalid({ lat: latitude === undefined, lng: longitude === undefined });
    if (latitude === undefined || longitude === undefined) {
      (latitude === undefined ? latInput : lngInput).current?.focus();
      return;
    }
    setPositionProblem(undefined);
    focusResults.current = true;
    void load({ lat: forQuery(latitude), lng: forQuery(longitude), from: 'typed' }, radius);
  }

  function changeRadius(value: string) {
    setRadius(value);
    radiusNow.current = value;
    if (search.state === 'done') void load(search.point, value);
  }

  // One live region for what is going on: progress, a position problem (shown as a notice), or
  // the count of what was found (read out only: the results' heading shows it).
  const [status, statusClass] = locating
    ? ['Standort wird ermittelt …', 'status']
    : search.state === 'loading'
      ? ['Verfügbare Hundeführer werden gesucht …', 'status']
      : positionProblem
        ? [positionProblem, 'notice']
        : search.state === 'done'
          ? [
              `${found(search.handlers.length, search.nextCursor !== undefined)}.`,
              'visually-hidden',
            ]
          : ['', 'status'];
  const coordinatesInvalid = invalid.lat || invalid.lng;
  const describedBy = coordinatesInvalid
    ? 'koordinaten-hinweis koordinaten-fehler'
    : 'koordinaten-hinweis';

  return (
    <>
      <p class={statusClass} role="status">
        {status}
      </p>
      {search.state === 'error' && (
        <p class="error" role="alert">
          {search.message}
        </p>
      )}
      {search.state === 'done' && (
        <section aria-labelledby="ergebnisse">
          <h2 id="ergebnisse" tabIndex={-1} ref={resultsHeading}>
            {found(search.handlers.length, search.nextCursor !== undefined)}
          </h2>
          <p class="point">
            Die nächsten zuerst, ab {formatPoint(search.point)} (
            {search.point.from === 'position' ? 'Ihr Standort' : 'eingegebene Koordinaten'})
            {search.radius !== '' && `, im Umkreis von ${search.radius} km`}
          </p>
          {search.handlers.length === 0 ? (
            <p>
              Gerade ist {search.radius === '' ? 'niemand' : 'im Umkreis niemand'} verfügbar.
              {search.radius !== '' && ' Ein größerer Umkreis findet vielleicht jemanden.'}
            </p>
          ) : (
            <ol class="cards">
              {search.handlers.map((handler) => (
                <HandlerCard key={handler._id} handler={handler} />
              ))}
            </ol>
          )}
          {search.moreError && (
            <p class="error" role="alert">
              {search.moreError}
            </p>
          )}
          {search.nextCursor !== undefined && (
            <button
              type="button"
              class="secondary wide"
              disabled={search.loadingMore}
              onClick={() => void load(search.point, search.radius, search.nextCursor)}
            >
              {search.loadingMore ? 'Wird geladen …' : 'Weitere anzeigen'}
            </button>
          )}
        </section>
      )}

      <section class="panel" aria-labelledby="suche">
        <h2 id="suche">Suche</h2>
        <label for="umkreis">Umkreis</label>
        <select
          id="umkreis"
          value={radius}
          onChange={(event) => changeRadius(event.currentTarget.value)}
        >
          {RADII.map((value) => (
            <option key={value} value={value}>
              {value === '' ? 'beliebig' : `${value} km`}
            </option>
          ))}
        </select>

        <button type="button" class="secondary wide" onClick={locate} disabled={locating}>
          Meinen Standort verwenden
        </button>

        <form onSubmit={searchTyped} noValidate>
          <fieldset>
            <legend>Oder Koordinaten eingeben</legend>
            <p class="hint" id="koordinaten-hinweis">
              Dezimalgrad, z. B. 52,52 und 13,405. Ortsnamen sucht diese Seite nicht: dafür müsste
              sie einen fremden Dienst fragen. Die Koordinaten eines Ortes zeigt Ihre Karten-App.
            </p>
            <div class="coordinates">
              <CoordinateField
                id="breitengrad"
                label="Breitengrad"
                inputRef={latInput}
                value={lat}
                onValue={setLat}
                invalid={invalid.lat}
                describedBy={describedBy}
              />
              <CoordinateField
                id="laengengrad"
                label="Längengrad"
                inputRef={lngInput}
                value={lng}
                onValue={setLng}
                invalid={invalid.lng}
                describedBy={describedBy}
              />
            </div>
            {coordinatesInvalid && (
              <p class="error" id="koordinaten-fehler" role="alert">
                Bitte {invalid.lat ? 'Breitengrad' : 'Längengrad'} als Zahl eingeben, z. B.{' '}
                {invalid.lat ? '52,52' : '13,405'}.
              </p>
            )}
          </fieldset>
          <button type="submit" class="wide">
            Suchen
          </button>
        </form>
      </section>
    </>
  );
}

function found(count: number, more: boolean): string {
  if (count === 0) return 'Niemand verfügbar';
  if (more) return `Die nächsten ${count} verfügbaren Hundeführer`;
  return count === 1 ? 'Ein verfügbarer Hundeführer' : `${count} verfügbare Hundeführer`;
}
