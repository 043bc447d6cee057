// The editor's map: a click sets the handler's position, and a typed position moves the marker.
// Leaflet draws it; the tiles come from the host the directory names in karte.json (MAP_TILE_URL),
// or none: the map stays grey and still takes a click. The marker is an SVG circle (no icon
// image, which the CSP's img-src would have to allow as a data: URI).
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { forQuery } from '../lib/format';

export interface Position {
  lat: number;
  lng: number;
}

interface TileSettings {
  url: string;
  attribution: string;
}

/** Germany as a whole, when the record has no position yet. */
const GERMANY = { center: L.latLng(51.16, 10.45), zoom: 6 };
/** Close enough to see the roads around a set position. */
const POSITION_ZOOM = 11;

/** karte.json, asked once per page load: the tiles do not change while the page is open. */
let settings: Promise<TileSettings | null> | undefined;
function tileSettings(): Promise<TileSettings | null> {
  settings ??= fetch('/verzeichnis/karte.json', { cache: 'no-cache' })
    .then((response) => (response.ok ? response.json() : { tiles: null }))
    .then((body: { tiles: TileSettings | null }) => body.tiles)
    .catch(() => null);
  return settings;
}

/**
 * Leaflet writes the attribution as HTML; the configured text is shown as text, whatever
 * characters it holds.
 */
const asHtmlText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function PositionMap(props: {
  position: Position | undefined;
  onPick: (position: Position) => void;
  /** The id of the text that explains the map (its hint). */
  describedBy: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | undefined>(undefined);
  const marker = useRef<L.CircleMarker | undefined>(undefined);
  const onPick = useRef(props.onPick);
  onPick.current = props.onPick;
  const [tiles, setTiles] = useState<'loading' | 'none' | 'shown'>('loading');

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const start = props.position;
    const created = L.map(element, {
      center: start ? L.latLng(start.lat, start.lng) : GERMANY.center,
      zoom: start ? POSITION_ZOOM : GERMANY.zoom,
      zoomControl: false,
    });
    L.control.zoom({ zoomInTitle: 'Vergrößern', zoomOutTitle: 'Verkleinern' }).addTo(created);
    created.on('click', (event: L.LeafletMouseEvent) => {
      const { lat, lng } = event.latlng.wrap();
      onPick.current({ lat: forQuery(lat), lng: forQuery(lng) });
    });
    map.current = created;
    // Leaflet measures its container on a window resize only; the editor's layout can change
    // its width without one (a scroll bar appearing); the centre stays, and a click lands where it
    // points.
    const resized = new ResizeObserver(() => created.invalidateSize());
    resized.observe(element);
    let open = true;
    void tileSettings().then((tileConfig) => {
      if (!open) return;
      if (!tileConfig) {
        setTiles('none');
        return;
      }
      L.tileLayer(tileConfig.url, {
        attribution: asHtmlText(tileConfig.attribution),
        maxZoom: 19,
      }).addTo(created);
      setTiles('shown');
    });
    return () => {
      open = false;
      resized.disconnect();
      created.remove();
      map.current = undefined;
      marker.current = undefined;
    };
  }, []);

  // The marker follows the position (a click or typed values); the map keeps it in view.
  useEffect(() => {
    const current = map.current;
    if (!current) return;
    const { position } = props;
    if (!position) {
      marker.current?.remove();
      marker.current = undefined;
      return;
    }
    const point = L.latLng(position.lat, position.lng);
    if (marker.current) marker.current.setLatLng(point);
    else {
      marker.current = L.circleMarker(point, {
        radius: 9,
        color: '#143f21',
        weight: 3,
        fillColor: '#e8a317',
        fillOpacity: 0.9,
        interactive: false,
      }).addTo(current);
    }
    if (!current.getBounds().contains(point)) current.panTo(point);
  }, [props.position?.lat, props.position?.lng]);

  return (
    <>
      <div
        ref={container}
        class="position-map"
        role="region"
        aria-label="Karte: ein Klick setzt die Position"
        aria-describedby={props.describedBy}
      />
      {tiles === 'none' && (
        <p class="hint">
          Für dieses Verzeichnis ist kein Kartendienst eingerichtet: die Karte bleibt grau, ein
          Klick setzt die Position trotzdem. Genauer geht es mit den Koordinaten.
        </p>
      )}
    </>
  );
}
