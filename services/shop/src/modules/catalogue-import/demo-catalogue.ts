import type { Catalogue } from './parse.js';

/** A small working-dog catalogue for first starts and demos (loaded through the import path). */
export function demoCatalogue(): Catalogue {
  const categories: Catalogue['categories'] = [
    { name: 'Hunting equipment', description: 'Gear for the hunt', parent: null, sort_order: 1 },
    { name: 'Dog equipment', description: 'For working dogs', parent: null, sort_order: 2 },
    {
      name: 'Leads & collars',
      description: 'Tracking leads, collars, harnesses',
      parent: 'Dog equipment',
      sort_order: 1,
    },
    {
      name: 'GPS trackers',
      description: 'Dog tracking devices',
      parent: 'Dog equipment',
      sort_order: 2,
    },
    {
      name: 'Clothing',
      description: 'Weatherproof hunting clothing',
      parent: 'Hunting equipment',
      sort_order: 1,
    },
    {
      name: 'Optics',
      description: 'Binoculars and scopes',
      parent: 'Hunting equipment',
      sort_order: 2,
    },
  ];
  const products: Catalogue['products'] = [
    {
      name: 'Tracking lead 10 m',
      description: 'Biothane blood-tracking lead, orange',
      price: 39.9,
      category: 'Leads & collars',
      stock: 40,
    },
    {
      name: 'Tracking harness',
      description: 'Padded harness for long tracks',
      price: 54.5,
      category: 'Leads & collars',
      stock: 25,
    },
    {
      name: 'Signal collar',
      description: 'High-visibility collar with name plate',
      price: 19.99,
      category: 'Leads & collars',
      stock: 80,
    },
    {
      name: 'GPS dog tracker Pro',
      description: 'GPS tracker with 20 km range and bark detection',
      price: 349,
      category: 'GPS trackers',
      stock: 12,
    },
    {
      name: 'GPS tracker collar strap',
      description: 'Spare strap for GPS trackers',
      price: 24.95,
      category: 'GPS trackers',
      stock: 60,
    },
    {
      name: 'Hunting jacket',
      description: 'Waterproof, quiet fabric, signal orange panels',
      price: 229,
      category: 'Clothing',
      stock: 15,
    },
    {
      name: 'Hunting trousers',
      description: 'Thorn-proof trousers with knee protection',
      price: 149,
      category: 'Clothing',
      stock: 20,
    },
    {
      name: 'Binoculars 8x42',
      description: 'Bright binoculars for dusk',
      price: 499,
      category: 'Optics',
      stock: 8,
    },
    {
      name: 'Rangefinder',
      description: 'Laser rangefinder up to 1500 m',
      price: 379,
      category: 'Optics',
      stock: 10,
    },
    {
      name: 'Dog first-aid kit',
      description: 'Bandages, tick remover, wound spray for working dogs',
      price: 44.9,
      category: 'Dog equipment',
      stock: 30,
    },
  ];
  return { categories, products };
}
