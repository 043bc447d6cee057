// A new API key: a name, its kind, and for a secret key its scopes (at least one; a publishable
// key takes none). The API answers with the key itself, this once.
import { ErrorAlert, useCall } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { outcome, type Api, type Schemas } from '../lib/api';
import { FieldMessage, fieldRefusal, refusedInput } from '../lib/field-messages';
import { SCOPE_NAMES, SCOPES, type ApiKeyScope } from './scopes';

type Kind = Schemas['CreateApiKeyBody']['type'];

/** Checked before sending: the API's own refusal would name no field. */
const NO_SCOPE = { field: 'scopes', text: 'Choose at least one scope.' };

export function CreateKeyForm(props: {
  api: Api;
  onCreated: (created: Schemas['CreatedApiKeyResponse']) => void;
}) {
  const [title, setTitle] = useState('');
  const [kind, setKind] = useState<Kind>('secret');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [noScope, setNoScope] = useState(false);
  const call = useCall();
  const refusal = noScope ? NO_SCOPE : fieldRefusal(call.error);

  function toggle(scope: ApiKeyScope, on: boolean) {
    setNoScope(false);
    setScopes((chosen) =>
      on
        ? SCOPES.filter((s) => s === scope || chosen.includes(s))
        : chosen.filter((s) => s !== scope),
    );
  }

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (call.busy) return;
    if (kind === 'secret' && scopes.length === 0) {
      setNoScope(true);
      call.setError(undefined);
      return;
    }
    const created = await call.run(
      outcome(
        props.api.POST('/admin/api-keys', {
          body:
            kind === 'secret'
              ? { type: kind, title: title.trim(), scopes }
              : { type: kind, title: title.trim() },
        }),
      ),
    );
    if (!created) return;
    props.onCreated(created);
    setTitle('');
    setScopes([]);
  }

  return (
    <form class="panel narrow" aria-labelledby="new-key" onSubmit={(e) => void submit(e)}>
      <h3 id="new-key">New key</h3>
      <label for="new-key-title">Name</label>
      <p class="hint" id="new-key-title-hint">
        Who or what uses it, for example “Warehouse sync” or “Web shop”.
      </p>
      <input
        id="new-key-title"
        required
        maxLength={100}
        autoComplete="off"
        value={title}
        onInput={(event) => setTitle(event.currentTarget.value)}
        {...refusedInput(refusal, 'title', 'new-key-title', 'new-key-title-hint')}
      />
      <FieldMessage refusal={refusal} field="title" inputId="new-key-title" />
      <fieldset>
        <legend>Kind</legend>
        <label class="check">
          <input
            type="radio"
            name="new-key-kind"
            value="secret"
            checked={kind === 'secret'}
            aria-describedby="new-key-secret-hint"
            onChange={() => setKind('secret')}
          />
          <span>
            Secret key <code>sk_…</code>
            <span class="hint check-hint" id="new-key-secret-hint">
              For a program on a server: opens what its scopes allow. Shown once.
            </span>
          </span>
        </label>
        <label class="check">
          <input
            type="radio"
            name="new-key-kind"
            value="publishable"
            checked={kind === 'publishable'}
            aria-describedby="new-key-publishable-hint"
            onChange={() => {
              setKind('publishable');
              setNoScope(false);
            }}
          />
          <span>
            Publishable key <code>pk_…</code>
            <span class="hint check-hint" id="new-key-publishable-hint">
              For a storefront in the browser: reads the catalogue, signs customers in, places
              orders. No scopes.
            </span>
          </span>
        </label>
      </fieldset>
      {kind === 'secret' && (
        <fieldset id="new-key-scopes" {...refusedInput(refusal, 'scopes', 'new-key-scopes')}>
          <legend>Scopes</legend>
          <div class="checks">
            {SCOPES.map((scope) => (
              <label class="check" key={scope}>
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(event) => toggle(scope, event.currentTarget.checked)}
                />
                <span>
                  {SCOPE_NAMES[scope]} <code>{scope}</code>
                </span>
              </label>
            ))}
          </div>
          <FieldMessage refusal={refusal} field="scopes" inputId="new-key-scopes" />
        </fieldset>
      )}
      <ErrorAlert text={refusal ? undefined : call.error} />
      <button type="submit" class="wide" disabled={call.busy}>
        {call.busy ? 'Creating …' : 'Create key'}
      </button>
    </form>
  );
}
