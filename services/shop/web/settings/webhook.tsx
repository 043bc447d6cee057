// Not built yet: Webhook.
import type { SectionProps } from '../app/app';

export function WebhookPage(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Webhook</h2>
    </section>
  );
}
