// The peer's side of each P figure: Platformatic DB's REST query strings for the work the shop
// does on its own product list (sql-openapi's `where.<field>.<op>`, `where.or`, `orderby.<field>`,
// `fields`, `totalCount`).
import type { Options } from '../context.js';

export const PEER_IDS = ['P-list', 'P-price', 'P-search'] as const;
export type PeerId = (typeof PEER_IDS)[number];

/** `--only P` runs all three, `--only P-list,P-search` some (the option is upper-cased). */
export const wantsPeer = (options: Pick<Options, 'only'>, id?: PeerId): boolean =>
  options.only === null ||
  options.only.has('P') ||
  (id === undefined
    ? PEER_IDS.some((p) => options.only!.has(p.toUpperCase()))
    : options.only.has(id.toUpperCase()));

/** The shop's columns; the peer would otherwise also send `updatedAt`, which the shop does not. */
export const PEER_FIELDS = 'id,name,description,price,categoryId,stock,active,createdAt';
/** Twenty active products, the shop's columns. */
export const PEER_BASE = `limit=20&fields=${PEER_FIELDS}&where.active.eq=true`;
/** The shop's default order (newest first, ties by id) and the exact total (X-Total-Count). */
export const PEER_ORDER = 'orderby.createdAt=desc&orderby.id=desc&totalCount=true';

export const peerListQuery = () => `/products?${PEER_BASE}&${PEER_ORDER}`;

export const peerPriceQuery = (min: number, max: number) =>
  `/products?${PEER_BASE}&where.price.gte=${min}&where.price.lte=${max}&${PEER_ORDER}`;

/**
 * A two-term name/description search with a price range. The peer's query language has one OR
 * group per request (`where.or=(a|b)`, each alternative one field condition) and one condition per
 * field and operator: the first term is searched in the name or the description, the second in the
 * description (on the bench's data every description begins with its product's name's words).
 */
export function peerSearchQuery(terms: [string, string], min: number, max: number): string {
  const [first, second] = terms;
  const or = `(name.ilike=%${first}%|description.ilike=%${first}%)`;
  return `/products?${PEER_BASE}&where.price.gte=${min}&where.price.lte=${max}&where.or=${encodeURIComponent(or)}&where.description.ilike=${encodeURIComponent(`%${second}%`)}&${PEER_ORDER}`;
}
