/** Who did something in the shop: a staff account, an API key, or a customer. */
export interface Actor {
  type: 'staff' | 'api_key' | 'customer';
  /** The account's or key's id. */
  id: number;
  /** The staff member's name, the key's title, the customer's e-mail: as it was then. */
  name: string;
}

/** As stored beside a change (order history, notes, audit entries). */
export const actorColumns = (actor: Actor) => ({
  actorType: actor.type,
  actorId: actor.id,
  actorName: actor.name,
});

/** As the API shows it. */
export const actorView = (row: {
  actorType: string | null;
  actorId: number | null;
  actorName: string | null;
}) =>
  row.actorType === null || row.actorName === null
    ? null
    : { type: row.actorType as Actor['type'], id: row.actorId, name: row.actorName };
