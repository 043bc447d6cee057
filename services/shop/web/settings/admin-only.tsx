// The settings are an admin's: the nav hides them from other roles and the router answers "no
// such page" there. Should a settings page still be rendered for another role, it shows nothing
// (no control that writes); the API refuses such a caller anyway (403).
import type { SectionProps } from '../app/app';

export function adminOnly(Page: (props: SectionProps) => preact.JSX.Element) {
  return function AdminOnly(props: SectionProps) {
    return props.session.me.role === 'admin' ? <Page {...props} /> : <></>;
  };
}
