// Not built yet: Import products.
import type { SectionProps } from '../app/app';

export function ProductImport(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Import products</h2>
    </section>
  );
}
