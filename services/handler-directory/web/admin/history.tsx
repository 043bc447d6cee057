// (To be built: issue 22.)
import type { Api } from '../lib/api';

/** One handler's change history, newest first: when, who, and each field before and after. */
export function HandlerHistory(props: { api: Api; handlerId: string; name: string }) {
  return <p>{props.name}</p>;
}
