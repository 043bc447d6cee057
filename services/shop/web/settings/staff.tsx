// Not built yet: Staff.
import type { SectionProps } from '../app/app';

export function StaffAccounts(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Staff</h2>
    </section>
  );
}
