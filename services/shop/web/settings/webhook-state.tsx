// Whether a webhook is sending: enabled, disabled by an admin, or disabled by the shop after
// failing for days (with the shop's reason).
import type { Schemas } from '../lib/api';

export function WebhookState({ webhook }: { webhook: Schemas['Webhook'] }) {
  if (webhook.enabled) return <span class="outcome-delivered">Enabled</span>;
  return (
    <span class="outcome-failed">
      {webhook.disabled_reason ? 'Disabled by the shop' : 'Disabled'}
    </span>
  );
}
