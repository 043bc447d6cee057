// The router's URLs (src/paths.ts): which section a path names, and one URL per view.
import { describe, expect, it } from '@jest/globals';
import { matchPath, withQuery } from '../src/paths';

describe('matchPath', () => {
  it('matches a section with or without its trailing slash', () => {
    expect(matchPath('/verzeichnis/admin/', '/verzeichnis/admin/')).toEqual({});
    expect(matchPath('/verzeichnis/admin/', '/verzeichnis/admin')).toEqual({});
    expect(matchPath('/verzeichnis/admin/konten', '/verzeichnis/admin/konten/')).toEqual({});
  });

  it('takes one segment per parameter, decoded', () => {
    expect(matchPath('/app/orders/:id', '/app/orders/42')).toEqual({ id: '42' });
    expect(matchPath('/app/customers/:email', '/app/customers/a%40b.de')).toEqual({
      email: 'a@b.de',
    });
  });

  it('does not match another section, a longer or a shorter path', () => {
    expect(matchPath('/verzeichnis/admin/', '/verzeichnis/admin/konten')).toBeUndefined();
    expect(matchPath('/verzeichnis/admin/konten', '/verzeichnis/admin/import')).toBeUndefined();
    expect(matchPath('/app/orders/:id', '/app/orders')).toBeUndefined();
    expect(matchPath('/app/orders/:id', '/app/orders/42/items')).toBeUndefined();
  });
});

describe('withQuery', () => {
  it('writes the parameters in a stable order, leaving out empty and default values', () => {
    expect(
      withQuery(
        '/verzeichnis/admin/',
        { verfuegbar: 'true', suche: 'Hof Tief', typ: '', sortierung: 'name' },
        { sortierung: 'name' },
      ),
    ).toBe('/verzeichnis/admin/?suche=Hof+Tief&verfuegbar=true');
  });

  it('gives the default view the bare path', () => {
    expect(
      withQuery('/verzeichnis/admin/', { suche: '', sortierung: 'name' }, { sortierung: 'name' }),
    ).toBe('/verzeichnis/admin/');
  });

  it('encodes what a URL cannot carry as it is', () => {
    expect(withQuery('/app/orders', { q: 'a&b=c/ä' })).toBe('/app/orders?q=a%26b%3Dc%2F%C3%A4');
  });
});
