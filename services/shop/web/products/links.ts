// The products section's URLs (a product's own is app/paths.ts's productPath). A new product's
// editor is `/app/products/new`: the route `/app/products/:id` takes it, ProductPage tells it
// from an id.
export const PRODUCTS_PATH = '/app/products';
export const NEW_PRODUCT_ID = 'new';
export const NEW_PRODUCT_PATH = `${PRODUCTS_PATH}/${NEW_PRODUCT_ID}`;
export const IMPORT_PATH = `${PRODUCTS_PATH}/import`;
export const CATEGORIES_PATH = '/app/categories';

/** The list as last shown (its filters): where a product's "Back to the products" leads. */
let listUrl = PRODUCTS_PATH;
export const lastListUrl = () => listUrl;
export const rememberListUrl = (url: string) => {
  listUrl = url;
};
