// The forms of the accounts section: a new account (username, role, for a handler its record),
// and a changed role or record of an existing one.
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import type { Account, Api, Schemas } from '../lib/api';
import { ErrorAlert } from '@dogshop/web-kit';
import { FieldMessage, fieldRefusal, refusedInput } from '../lib/field-messages';
import { ROLE_NAMES } from '../lib/pages';
import type { Role } from '../lib/session';
import { useCall } from '../lib/use-call';
import { HandlerPicker, type ChosenHandler } from './handler-picker';

const ROLES: Role[] = ['handler', 'viewer', 'admin'];
const NO_HANDLER = 'Bitte den Eintrag des Hundeführers suchen und wählen.';

function RoleSelect(props: { id: string; value: Role; onChange: (role: Role) => void }) {
  return (
    <>
      <label for={props.id}>Rolle</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => {
          const role = ROLES.find((r) => r === event.currentTarget.value);
          if (role) props.onChange(role);
        }}
      >
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_NAMES[role]}
          </option>
        ))}
      </select>
    </>
  );
}

export function CreateAccountForm(props: {
  api: Api;
  onCreated: (created: Schemas['CreatedAccountResponse'], handlerName?: string) => void;
}) {
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>('handler');
  const [handler, setHandler] = useState<ChosenHandler | undefined>();
  const { busy, error, setError, run } = useCall();
  const refusal = fieldRefusal(error);
  // A new picker (empty search) for each new account.
  const [round, setRound] = useState(0);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (role === 'handler' && !handler) {
      setError(NO_HANDLER);
      return;
    }
    const created = await run(
      props.api.POST('/api/accounts', {
        body: {
          username: username.trim(),
          role,
          ...(role === 'handler' && { handlerId: handler?.id }),
        },
      }),
    );
    if (!created) return;
    props.onCreated(created, role === 'handler' ? handler?.name : undefined);
    setUsername('');
    setHandler(undefined);
    setRound(round + 1);
  }

  return (
    <form class="panel narrow" aria-labelledby="neues-konto" onSubmit={(e) => void submit(e)}>
      <h3 id="neues-konto">Neues Konto</h3>
      <label for="neues-konto-name">Benutzername</label>
      <p class="hint" id="neues-konto-hinweis">
        3–64 Zeichen: Buchstaben, Ziffern, Punkt, Unterstrich, @ oder Bindestrich.
      </p>
      <input
        id="neues-konto-name"
        required
        autoComplete="off"
        autoCapitalize="none"
        spellcheck={false}
        value={username}
        onInput={(event) => setUsername(event.currentTarget.value)}
        {...refusedInput(refusal, 'username', 'neues-konto-name', 'neues-konto-hinweis')}
      />
      <FieldMessage refusal={refusal} field="username" inputId="neues-konto-name" />
      <RoleSelect id="neues-konto-rolle" value={role} onChange={setRole} />
      {role === 'handler' && (
        <HandlerPicker
          key={round}
          api={props.api}
          idPrefix="neues-konto"
          chosen={handler}
          onChoose={setHandler}
        />
      )}
      <ErrorAlert text={refusal ? undefined : error} />
      <button type="submit" class="wide" disabled={busy}>
        {busy ? 'Wird angelegt …' : 'Konto anlegen'}
      </button>
    </form>
  );
}

/** A changed role, or for a handler account another record. */
export function AccountEditor(props: {
  api: Api;
  account: Account;
  handlerName: string | undefined;
  onSaved: (account: Account, handlerName?: string) => void;
  onCancel: () => void;
}) {
  const { account } = props;
  const [role, setRole] = useState<Role>(account.role);
  const [handler, setHandler] = useState<ChosenHandler | undefined>(
    account.handlerId
      ? { id: account.handlerId, name: props.handlerName || 'der bisherige Eintrag' }
      : undefined,
  );
  const { busy, error, setError, run } = useCall();

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (role === 'handler' && !handler) {
      setError(NO_HANDLER);
      return;
    }
    const saved = await run(
      props.api.PATCH('/api/accounts/{id}', {
        params: { path: { id: account.id } },
        // Another role clears the record (the API does); a handler account names its record.
        body: role === 'handler' ? { role, handlerId: handler?.id } : { role },
      }),
    );
    if (saved) props.onSaved(saved.data, role === 'handler' ? handler?.name : undefined);
  }

  const id = `konto-${account.id}-bearbeiten`;
  return (
    <form
      class="account-editor"
      aria-label={`Rolle von ${account.username} ändern`}
      onSubmit={(e) => void submit(e)}
    >
      <RoleSelect id={`${id}-rolle`} value={role} onChange={setRole} />
      {role === 'handler' && (
        <HandlerPicker api={props.api} idPrefix={id} chosen={handler} onChoose={setHandler} />
      )}
      <ErrorAlert text={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Wird gespeichert …' : 'Speichern'}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Abbrechen
        </button>
      </div>
    </form>
  );
}
