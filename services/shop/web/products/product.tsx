// Not built yet: Product.
import type { SectionProps } from '../app/app';

export function ProductPage(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Product</h2>
    </section>
  );
}
