// "Verfügbar" and "bis": one switch and a few ends a thumb can pick outdoors, saved together with
// one button (a switch that saved on its own would list a handler before he chose the end).
import type { TargetedSubmitEvent } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { Handler } from '../lib/api';
import { ErrorAlert } from '@dogshop/web-kit';
import type { Session } from '../lib/session';
import { useCall } from '../lib/use-call';
import {
  availabilityWords,
  instantOfLocalInput,
  listedAt,
  localInputValue,
  quickChoices,
  type EndChoice,
} from './times';

interface Form {
  on: boolean;
  choice: EndChoice | undefined;
  /** The `datetime-local` value of the choice "Datum und Uhrzeit". */
  date: string;
}

/** The form as the saved record sets it: the saved end stays chosen (as a date) until changed. */
function initialForm(handler: Handler, now: Date): Form {
  const listed = listedAt(handler, now);
  const until = handler.availableUntil;
  if (!listed) return { on: false, choice: undefined, date: '' };
  return until === null
    ? { on: true, choice: 'ohne-ende', date: '' }
    : { on: true, choice: 'datum', date: localInputValue(new Date(until)) };
}

type Outcome = { end: Date | null } | { problem: string; focusDate?: boolean };

/** The end the form means, read at the moment of saving (a quick choice moves with the clock). */
function chosenEnd(choice: EndChoice | undefined, date: string): Outcome {
  if (choice === undefined) return { problem: 'Bitte wählen Sie, bis wann Sie verfügbar sind.' };
  if (choice === 'ohne-ende') return { end: null };
  const now = new Date();
  const end =
    choice === 'datum'
      ? instantOfLocalInput(date)
      : quickChoices(now).find((quick) => quick.choice === choice)?.end;
  if (end === undefined) {
    return choice === 'datum'
      ? { problem: 'Bitte Datum und Uhrzeit des Endes eingeben.', focusDate: true }
      : { problem: 'Diese Wahl ist schon vorbei. Bitte ein anderes Ende wählen.' };
  }
  if (end <= now) {
    return {
      problem: 'Dieses Ende ist schon vorbei. Bitte ein späteres wählen.',
      focusDate: choice === 'datum',
    };
  }
  return { end };
}

export function Availability(props: {
  session: Session;
  handler: Handler;
  now: Date;
  onSaved: (handler: Handler) => void;
}) {
  const { handler, now } = props;
  const [form, setForm] = useState(() => initialForm(handler, now));
  const { busy, error, setError, run } = useCall();
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState(false);
  const dateInput = useRef<HTMLInputElement>(null);

  function change(patch: Partial<Form>) {
    setForm((previous) => ({ ...previous, ...patch }));
    setDirty(true);
    setSaved(false);
    setError(undefined);
  }

  async function save(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    let body: { available: boolean; availableUntil?: string | null };
    if (form.on) {
      const outcome = chosenEnd(form.choice, form.date);
      if ('problem' in outcome) {
        setError(outcome.problem);
        if (outcome.focusDate) dateInput.current?.focus();
        return;
      }
      body = { available: true, availableUntil: outcome.end?.toISOString() ?? null };
    } else {
      body = { available: false };
    }
    const saved = await run(
      props.session.api.PUT('/api/users/{id}/availability', {
        params: { path: { id: handler._id } },
        body,
      }),
    );
    if (!saved) return;
    props.onSaved(saved.data);
    setDirty(false);
    setSaved(true);
  }

  const words = availabilityWords(handler, now);
  return (
    <form
      class="panel"
      aria-labelledby="verfuegbarkeit"
      onSubmit={(event) => void save(event)}
      noValidate
    >
      <h2 id="verfuegbarkeit">Verfügbarkeit</h2>
      <p class={listedAt(handler, now) ? 'state on' : 'state'} role="status">
        {saved ? `Gespeichert. ${words}` : words}
      </p>

      <label class="switch">
        <input
          type="checkbox"
          role="switch"
          checked={form.on}
          onChange={(event) => change({ on: event.currentTarget.checked })}
        />
        <span>verfügbar</span>
      </label>

      {form.on && (
        <fieldset class="ends">
          <legend>bis</legend>
          {quickChoices(now).map((quick) => (
            <EndOption
              key={quick.choice}
              value={quick.choice}
              label={quick.label}
              detail={quick.detail}
              checked={form.choice === quick.choice}
              onChoose={() => change({ choice: quick.choice })}
            />
          ))}
          <EndOption
            value="datum"
            label="Datum und Uhrzeit"
            checked={form.choice === 'datum'}
            onChoose={() => change({ choice: 'datum' })}
          />
          {form.choice === 'datum' && (
            <div class="end-date">
              <label for="ende-am">Ende am</label>
              <input
                id="ende-am"
                ref={dateInput}
                type="datetime-local"
                min={localInputValue(now)}
                value={form.date}
                onInput={(event) => change({ date: event.currentTarget.value })}
              />
            </div>
          )}
          <EndOption
            value="ohne-ende"
            label="ohne Ende"
            detail="bis Sie es hier ändern"
            checked={form.choice === 'ohne-ende'}
            onChoose={() => change({ choice: 'ohne-ende' })}
          />
        </fieldset>
      )}

      <ErrorAlert text={error} />
      {dirty && <p class="hint">Noch nicht gespeichert.</p>}
      <button type="submit" class="wide" disabled={busy}>
        {busy ? 'Wird gespeichert …' : 'Speichern'}
      </button>
    </form>
  );
}

/** One end to choose: a radio button with a label a thumb can hit (the whole row). */
function EndOption(props: {
  value: EndChoice;
  label: string;
  detail?: string;
  checked: boolean;
  onChoose: () => void;
}) {
  return (
    <label class="choice">
      <input
        type="radio"
        name="ende"
        value={props.value}
        checked={props.checked}
        onChange={props.onChoose}
      />
      <span>
        {props.label}
        {props.detail && <span class="detail"> ({props.detail})</span>}
      </span>
    </label>
  );
}
