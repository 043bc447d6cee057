import type { CreateHandlerBody } from '@dogshop/contracts/handler-directory';

/** A small directory to explore the API with: umlauts, positions across Germany, one unavailable. */
export const DEMO_HANDLERS: CreateHandlerBody[] = [
  {
    name: 'Jürgen Größmann',
    address: 'Forsthaus Eichengrund 3, 29633 Munster',
    phone: '+49 5192 123456',
    type: 'SW',
    available: true,
    gps: { lat: 52.9866, lng: 10.0869 },
  },
  {
    name: 'Änne Köhler',
    address: 'Hauptstraße 12, 83471 Berchtesgaden',
    phone: '+49 8652 987654',
    type: 'BGS',
    available: true,
    gps: { lat: 47.6311, lng: 13.0017 },
  },
  {
    name: 'Björn Weiß',
    address: 'Am Jagdschloss 7, 54595 Prüm',
    phone: '+49 6551 445566',
    type: 'HS',
    available: true,
    gps: { lat: 50.2079, lng: 6.4234 },
  },
  {
    name: 'Özlem Brückner',
    address: 'Waldweg 21, 01814 Bad Schandau',
    phone: '+49 35022 55443',
    type: 'SW',
    available: true,
    gps: { lat: 50.9172, lng: 14.1546 },
  },
  {
    name: 'Uwe Müßig',
    address: 'Heideweg 5, 17235 Neustrelitz',
    phone: '+49 3981 202020',
    type: 'BGS',
    available: false,
    gps: { lat: 53.3617, lng: 13.0608 },
  },
  {
    name: 'Sören Päßler',
    address: 'Schwarzwaldstraße 44, 79868 Feldberg',
    phone: '+49 7655 3030',
    type: 'HS',
    available: true,
    gps: { lat: 47.8626, lng: 8.0357 },
  },
  {
    name: 'Gudrun Ostermann',
    address: 'Lindenallee 9, 34346 Hann. Münden',
    phone: '+49 5541 7788',
    type: 'SW',
    available: true,
  },
  {
    name: 'Hans-Jörg Übel',
    phone: '+49 171 5550123',
    type: 'BGS',
    available: true,
  },
];
