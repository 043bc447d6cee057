// Not built yet: Products.
import type { SectionProps } from '../app/app';

export function Products(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Products</h2>
    </section>
  );
}
