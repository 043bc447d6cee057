// Not built yet: Order.
import type { SectionProps } from '../app/app';

export function OrderPage(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Order</h2>
    </section>
  );
}
