// `@dogshop/web-kit/testing`: the services' page tests' helpers (Node, not the browser).
// Relative imports with .js: Node runs this module's build (the bench) without a bundler.
export * from './chromium.js';
export * from './page-size.js';
