// A new staff account: e-mail, name and role. The API answers with the account and its one-time
// set-password token (the page shows the link once); a taken e-mail is its 409 message.
import { ErrorAlert, useCall } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { outcome, type Api, type Schemas, type StaffRole } from '../lib/api';
import { FieldMessage, fieldRefusal, refusedInput } from '../lib/field-messages';
import { ROLE_HINT, RoleSelect } from './roles';

export function CreateStaffForm(props: {
  api: Api;
  onCreated: (created: Schemas['CreatedStaffResponse']) => void;
}) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<StaffRole>('staff');
  const call = useCall();
  const refusal = fieldRefusal(call.error);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (call.busy) return;
    const created = await call.run(
      outcome(
        props.api.POST('/admin/staff', { body: { email: email.trim(), name: name.trim(), role } }),
      ),
    );
    if (!created) return;
    props.onCreated(created);
    setEmail('');
    setName('');
    setRole('staff');
  }

  return (
    <form class="panel narrow" aria-labelledby="new-staff" onSubmit={(e) => void submit(e)}>
      <h3 id="new-staff">New account</h3>
      <label for="new-staff-email">E-mail</label>
      <input
        id="new-staff-email"
        type="email"
        required
        autoComplete="off"
        autoCapitalize="none"
        spellcheck={false}
        value={email}
        onInput={(event) => setEmail(event.currentTarget.value)}
        {...refusedInput(refusal, 'email', 'new-staff-email')}
      />
      <FieldMessage refusal={refusal} field="email" inputId="new-staff-email" />
      <label for="new-staff-name">Name</label>
      <input
        id="new-staff-name"
        required
        autoComplete="off"
        value={name}
        onInput={(event) => setName(event.currentTarget.value)}
        {...refusedInput(refusal, 'name', 'new-staff-name')}
      />
      <FieldMessage refusal={refusal} field="name" inputId="new-staff-name" />
      <label for="new-staff-role">Role</label>
      <p class="hint" id="new-staff-role-hint">
        {ROLE_HINT}
      </p>
      <RoleSelect
        id="new-staff-role"
        value={role}
        onChange={setRole}
        describedBy="new-staff-role-hint"
      />
      <ErrorAlert text={refusal ? undefined : call.error} />
      <button type="submit" class="wide" disabled={call.busy}>
        {call.busy ? 'Creating …' : 'Create account'}
      </button>
    </form>
  );
}
