// The roles an account can have, as the settings' role pickers offer them.
import type { StaffRole } from '../lib/api';

/** In the order the pickers list them: the usual choice first, the most powerful last. */
export const ROLE_CHOICES: readonly { role: StaffRole; label: string }[] = [
  { role: 'staff', label: 'Staff' },
  { role: 'viewer', label: 'Read only' },
  { role: 'admin', label: 'Admin' },
];

/** What each role may do (the create form's hint). */
export const ROLE_HINT =
  'Staff run orders, products, categories, customers and reviews; read-only accounts see the same without changing anything; admins also manage staff, API keys and webhooks.';

export function RoleSelect(props: {
  id: string;
  value: StaffRole;
  onChange: (role: StaffRole) => void;
  describedBy?: string;
}) {
  return (
    <select
      id={props.id}
      value={props.value}
      aria-describedby={props.describedBy}
      onChange={(event) => {
        const chosen = ROLE_CHOICES.find((c) => c.role === event.currentTarget.value);
        if (chosen) props.onChange(chosen.role);
      }}
    >
      {ROLE_CHOICES.map(({ role, label }) => (
        <option key={role} value={role}>
          {label}
        </option>
      ))}
    </select>
  );
}
