export * from './shared.js';
export * from './catalogue.js';
export * from './reviews.js';
export * from './orders.js';
export * from './customers.js';
export * from './newsletter.js';
export * from './examples.js';
