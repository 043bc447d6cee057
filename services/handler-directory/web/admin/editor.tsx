// Creating or changing a handler: name, phone, address, type, availability with an optional end,
// and the position, set by a click on the map or typed (latitude and longitude are labelled with
// their direction, so they cannot be swapped unnoticed). A change sends only the fields that
// differ from the record (an end that has passed, left as it was, is not sent back and refused).
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api, Handler, Schemas } from '../lib/api';
import { CoordinateField } from '../lib/coordinate-field';
import { ErrorAlert } from '@dogshop/web-kit';
import { FieldMessage, fieldRefusal, refusedInput } from '../lib/field-messages';
import { formatPoint, parseCoordinate } from '../lib/format';
import { useCall } from '../lib/use-call';
import { isoOfLocalInput, localInputValue } from './availability';
import { PositionMap, type Position } from './position-map';

type HandlerFields = Schemas['CreateHandlerBody'];

interface Draft {
  name: string;
  phone: string;
  address: string;
  type: string;
  available: boolean;
  until: string;
  lat: string;
  lng: string;
}

/** The draft's field of each field the API names. */
const DRAFT_FIELDS: Record<string, keyof Draft> = {
  name: 'name',
  phone: 'phone',
  address: 'address',
  type: 'type',
  availableUntil: 'until',
  'gps.lat': 'lat',
  'gps.lng': 'lng',
};

/** `52,52`: a coordinate as a German types it. */
const typed = (value: number) => String(value).replace('.', ',');

function draftOf(handler: Handler | undefined): Draft {
  return {
    name: handler?.name ?? '',
    phone: handler?.phone ?? '',
    address: handler?.address ?? '',
    type: handler?.type ?? '',
    available: handler?.available ?? true,
    until: handler?.availableUntil ? localInputValue(handler.availableUntil) : '',
    lat: handler?.gps ? typed(handler.gps.lat) : '',
    lng: handler?.gps ? typed(handler.gps.lng) : '',
  };
}

/** The typed position: none (both empty), a point, or invalid (which field). */
function positionOf(draft: Draft): Position | null | { invalid: 'lat' | 'lng' } {
  if (draft.lat.trim() === '' && draft.lng.trim() === '') return null;
  const lat = parseCoordinate(draft.lat);
  const lng = parseCoordinate(draft.lng);
  if (lat === undefined || Math.abs(lat) > 90) return { invalid: 'lat' };
  if (lng === undefined || Math.abs(lng) > 180) return { invalid: 'lng' };
  return { lat, lng };
}

/** The record the form describes, as the API takes it. */
function fieldsOf(draft: Draft, gps: Position | null): HandlerFields {
  return {
    name: draft.name,
    phone: draft.phone,
    address: draft.address.trim() === '' ? null : draft.address,
    type: draft.type.trim() === '' ? null : draft.type,
    available: draft.available,
    availableUntil: draft.available && draft.until !== '' ? isoOfLocalInput(draft.until) : null,
    gps,
  };
}

/** The fields of `next` that differ from the stored record. */
function changedFields(handler: Handler, next: HandlerFields): Partial<HandlerFields> {
  const changes: Partial<HandlerFields> = {};
  if (next.name !== handler.name) changes.name = next.name;
  if (next.phone !== handler.phone) changes.phone = next.phone;
  if (next.address !== (handler.address ?? null)) changes.address = next.address;
  if (next.type !== (handler.type ?? null)) changes.type = next.type;
  if (next.available !== handler.available) changes.available = next.available;
  const until = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);
  if (until(next.availableUntil) !== until(handler.availableUntil)) {
    changes.availableUntil = next.availableUntil;
  }
  const gps = handler.gps ?? null;
  if (next.gps?.lat !== gps?.lat || next.gps?.lng !== gps?.lng) changes.gps = next.gps;
  return changes;
}

export function HandlerEditor(props: {
  api: Api;
  /** The record to change; none: a new one. */
  handler: Handler | undefined;
  onSaved: (handler: Handler, created: boolean) => void;
  onCancel: () => void;
}) {
  const { handler } = props;
  const [draft, setDraft] = useState<Draft>(() => draftOf(handler));
  const [invalid, setInvalid] = useState<'lat' | 'lng' | undefined>();
  const { busy, error, setError, run } = useCall();
  // A field the API refused: its sentence beside it instead of the API's message.
  const refusal = fieldRefusal(error);
  const heading = useRef<HTMLHeadingElement>(null);
  const latInput = useRef<HTMLInputElement>(null);
  const lngInput = useRef<HTMLInputElement>(null);

  useEffect(() => heading.current?.focus(), []);

  const set = (change: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...change }));
    // The refused field changed: its sentence goes until the next answer.
    const refused = refusal && DRAFT_FIELDS[refusal.field];
    if (refused && refused in change) setError(undefined);
  };
  const position = positionOf(draft);
  const shown = position && !('invalid' in position) ? position : undefined;

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (position && 'invalid' in position) {
      setInvalid(position.invalid);
      (position.invalid === 'lat' ? latInput : lngInput).current?.focus();
      return;
    }
    setInvalid(undefined);
    const fields = fieldsOf(draft, position);
    if (!handler) {
      const created = await run(props.api.POST('/api/users', { body: fields }));
      if (created) props.onSaved(created.data, true);
      return;
    }
    const changes = changedFields(handler, fields);
    if (Object.keys(changes).length === 0) {
      props.onSaved(handler, false);
      return;
    }
    const saved = await run(
      props.api.PUT('/api/users/{id}', { params: { path: { id: handler._id } }, body: changes }),
    );
    if (saved) props.onSaved(saved.data, false);
  }

  const headingText = handler ? `${handler.name} bearbeiten` : 'Neuer Hundeführer';
  return (
    <section class="panel editor" aria-labelledby="editor-titel">
      <h2 id="editor-titel" tabIndex={-1} ref={heading}>
        {headingText}
      </h2>
      <form onSubmit={(event) => void submit(event)}>
        <div class="editor-grid">
          <div>
            <label for="feld-name">Name</label>
            <input
              id="feld-name"
              required
              maxLength={200}
              autoComplete="off"
              value={draft.name}
              onInput={(event) => set({ name: event.currentTarget.value })}
              {...refusedInput(refusal, 'name', 'feld-name')}
            />
            <FieldMessage refusal={refusal} field="name" inputId="feld-name" />
            <label for="feld-telefon">Telefon</label>
            <input
              id="feld-telefon"
              type="tel"
              required
              maxLength={50}
              autoComplete="off"
              value={draft.phone}
              onInput={(event) => set({ phone: event.currentTarget.value })}
              {...refusedInput(refusal, 'phone', 'feld-telefon')}
            />
            <FieldMessage refusal={refusal} field="phone" inputId="feld-telefon" />
            <label for="feld-adresse">Adresse</label>
            <input
              id="feld-adresse"
              maxLength={300}
              autoComplete="off"
              value={draft.address}
              onInput={(event) => set({ address: event.currentTarget.value })}
              {...refusedInput(refusal, 'address', 'feld-adresse')}
            />
            <FieldMessage refusal={refusal} field="address" inputId="feld-adresse" />
            <label for="feld-typ">Typ (Kürzel, z. B. SW)</label>
            <input
              id="feld-typ"
              maxLength={50}
              autoComplete="off"
              value={draft.type}
              onInput={(event) => set({ type: event.currentTarget.value })}
              {...refusedInput(refusal, 'type', 'feld-typ')}
            />
            <FieldMessage refusal={refusal} field="type" inputId="feld-typ" />
            <div class="check">
              <input
                id="feld-verfuegbar"
                type="checkbox"
                checked={draft.available}
                onChange={(event) => set({ available: event.currentTarget.checked })}
              />
              <label for="feld-verfuegbar">Verfügbar (im öffentlichen Finder gelistet)</label>
            </div>
            {draft.available && (
              <>
                <label for="feld-bis">Verfügbar bis</label>
                <input
                  id="feld-bis"
                  type="datetime-local"
                  value={draft.until}
                  onInput={(event) => set({ until: event.currentTarget.value })}
                  {...refusedInput(refusal, 'availableUntil', 'feld-bis', 'bis-hinweis')}
                />
                <p class="hint" id="bis-hinweis">
                  Leer: bis auf Weiteres. Ein Ende muss in der Zukunft liegen.
                </p>
                <FieldMessage refusal={refusal} field="availableUntil" inputId="feld-bis" />
              </>
            )}
          </div>
          <fieldset>
            <legend>Position</legend>
            <p class="hint" id="karte-hinweis">
              Ein Klick auf die Karte setzt die Position. Ohne Maus: die Koordinaten eingeben
              (Dezimalgrad, Komma oder Punkt).
            </p>
            <PositionMap
              position={shown}
              describedBy="karte-hinweis"
              onPick={(picked) => {
                setInvalid(undefined);
                set({ lat: typed(picked.lat), lng: typed(picked.lng) });
              }}
            />
            <div class="coordinates">
              <CoordinateField
                id="feld-breite"
                label="Breitengrad (Nord/Süd)"
                inputRef={latInput}
                value={draft.lat}
                onValue={(lat) => set({ lat })}
                invalid={invalid === 'lat' || refusal?.field === 'gps.lat'}
                describedBy="breite-hinweis"
                hint="−90 bis 90, Norden positiv"
                spellcheck={false}
              />
              <CoordinateField
                id="feld-laenge"
                label="Längengrad (Ost/West)"
                inputRef={lngInput}
                value={draft.lng}
                onValue={(lng) => set({ lng })}
                invalid={invalid === 'lng' || refusal?.field === 'gps.lng'}
                describedBy="laenge-hinweis"
                hint="−180 bis 180, Osten positiv"
                spellcheck={false}
              />
            </div>
            <p class="point" aria-live="polite">
              {shown ? `Gewählt: ${formatPoint(shown)}` : position ? '' : 'Keine Position gesetzt.'}
            </p>
            <FieldMessage refusal={refusal} field="gps.lat" inputId="feld-breite" />
            <FieldMessage refusal={refusal} field="gps.lng" inputId="feld-laenge" />
            {invalid && (
              <p class="error" role="alert">
                {invalid === 'lat'
                  ? 'Der Breitengrad ist keine Zahl zwischen −90 und 90.'
                  : 'Der Längengrad ist keine Zahl zwischen −180 und 180.'}
              </p>
            )}
            {shown && (
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  setInvalid(undefined);
                  set({ lat: '', lng: '' });
                }}
              >
                Position entfernen
              </button>
            )}
          </fieldset>
        </div>
        <ErrorAlert text={refusal ? undefined : error} />
        <div class="button-row">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={busy}>
            {busy ? 'Wird gespeichert …' : 'Speichern'}
          </button>
          <button type="button" class="secondary" onClick={props.onCancel}>
            Abbrechen
          </button>
        </div>
      </form>
    </section>
  );
}
