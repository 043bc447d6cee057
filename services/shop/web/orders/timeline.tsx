// An order's timeline, oldest first: its creation, each status change and each note, with who
// did it and when (the API's actor: a staff member's name, a key's title, the customer).
import type { Schemas } from '../lib/api';
import { formatDateTime, STATUS_NAMES } from '../lib/format';

type Entry = Schemas['OrderTimelineEntry'];

function who(actor: Entry['actor']): string {
  if (!actor) return '';
  const kind = { staff: '', api_key: 'API key ', customer: 'customer ' }[actor.type];
  return ` by ${kind}${actor.name}`;
}

function what(entry: Entry): string {
  if (entry.type === 'note') return `Note${who(entry.actor)}`;
  if (entry.from === null) return `Order placed${who(entry.actor)}`;
  const to = entry.to ? STATUS_NAMES[entry.to] : '';
  return `${STATUS_NAMES[entry.from]} → ${to}${who(entry.actor)}`;
}

export function Timeline({ entries }: { entries: Entry[] }) {
  return (
    <ol class="timeline">
      {entries.map((entry, index) => (
        <li key={`${entry.at}-${index}`}>
          <strong>{what(entry)}</strong>{' '}
          <time class="muted" dateTime={entry.at}>
            {formatDateTime(entry.at)}
          </time>
          {entry.note && <p class="note">{entry.note}</p>}
        </li>
      ))}
    </ol>
  );
}
