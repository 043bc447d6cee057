// Not built yet: Customers.
import type { SectionProps } from '../app/app';

export function Customers(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Customers</h2>
    </section>
  );
}
