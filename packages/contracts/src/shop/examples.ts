// Example values for the OpenAPI documents (request and response examples). Typed against the
// contracts, so an example that no longer fits its schema fails the build.
import type { Pagination } from '../common.js';
import type { Category, Product, ProductDetail } from './catalogue.js';
import type { Address, Profile } from './customers.js';
import type { OrderDetail } from './orders.js';
import type { Review, ReviewSummary } from './reviews.js';

export const EXAMPLE_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3IiwiZW1haWwiOiJqYW5hLmpvaGFubnNlbkBleGFtcGxlLmNvbSJ9.c2lnbmF0dXJl';

export const reviewExample: Review = {
  id: 31,
  product_id: 12,
  customer_id: 7,
  rating: 5,
  title: 'Tough and light',
  comment: 'Used it on three long tracks in wet forest; no tangles and easy to clean.',
  first_name: 'Jana',
  last_name: 'Johannsen',
  helpful_count: 2,
  created_at: '2026-03-14T09:21:05.000Z',
};

export const productExample: Product = {
  id: 12,
  name: 'Tracking lead 10 m',
  description: 'Biothane blood-tracking lead, orange',
  price: 39.9,
  category_id: 3,
  category_name: 'Leads & collars',
  stock: 40,
  active: true,
  created_at: '2026-02-01T08:00:00.000Z',
};

export const productDetailExample: ProductDetail = { ...productExample, reviews: [reviewExample] };

export const paginationExample: Pagination = { page: 1, limit: 20, total: 1, pages: 1 };

export const categoryExamples: Category[] = [
  {
    id: 2,
    name: 'Dog equipment',
    description: 'For working dogs',
    parent_id: null,
    sort_order: 2,
    active: true,
  },
  {
    id: 3,
    name: 'Leads & collars',
    description: 'Tracking leads, collars, harnesses',
    parent_id: 2,
    sort_order: 1,
    active: true,
  },
];

export const reviewSummaryExample: ReviewSummary = {
  average_rating: 4.5,
  total_reviews: 2,
  rating_distribution: [
    { rating: 5, count: 1 },
    { rating: 4, count: 1 },
    { rating: 3, count: 0 },
    { rating: 2, count: 0 },
    { rating: 1, count: 0 },
  ],
};

export const orderDetailExample: OrderDetail = {
  id: 1001,
  customer_name: 'Jana Johannsen',
  customer_email: 'jana.johannsen@example.com',
  total_amount: 79.8,
  status: 'pending',
  created_at: '2026-03-20T14:02:11.000Z',
  items: [
    {
      product_id: 12,
      product_name: 'Tracking lead 10 m',
      quantity: 2,
      price: 39.9,
      total_price: 79.8,
    },
  ],
};

export const addressExample: Address = {
  id: 4,
  first_name: 'Jana',
  last_name: 'Johannsen',
  company: '',
  address: 'Forstweg 3',
  city: 'Lüneburg',
  postal_code: '21335',
  country: 'Germany',
  phone: '+49 4131 123456',
  is_default: true,
};

export const profileExample: Profile = {
  id: 7,
  email: 'jana.johannsen@example.com',
  first_name: 'Jana',
  last_name: 'Johannsen',
  phone: '+49 4131 123456',
  newsletter: true,
  created_at: '2026-01-10T18:30:00.000Z',
  last_login: '2026-03-20T13:55:42.000Z',
  addresses: [addressExample],
};
