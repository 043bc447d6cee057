// Not built yet: Customer.
import type { SectionProps } from '../app/app';

export function CustomerPage(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Customer</h2>
    </section>
  );
}
