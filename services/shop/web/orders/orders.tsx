// Not built yet: Orders.
import type { SectionProps } from '../app/app';

export function Orders(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Orders</h2>
    </section>
  );
}
