// A bar chart of one figure per day, in plain SVG (no chart library: the app's first load stays
// small). The SVG is stretched to the width it gets (a viewBox and preserveAspectRatio="none":
// bars only, no text in it to distort); the scale and the dates are HTML beside it, so they stay
// legible at 360 px. A screen reader gets the caption and a summary as the image's name; the
// figures themselves are in the dashboard's table. Colours come from CSS classes (dark scheme).
import type { Schemas } from '../lib/api';
import { formatDate, formatDateShort } from '../lib/format';

type Day = Schemas['SalesDay'];

/** Units per day in the viewBox: a bar of BAR and a gap. */
const SLOT = 10;
const BAR = 7;
const HEIGHT = 100;
/** A day with a figure above 0 is never drawn as nothing. */
const MIN_BAR = 1.5;

/** The smallest of 1, 2, 2.5, 5 × 10ⁿ at or above `max`: the scale's top (1 when all are 0). */
export function scaleTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

export function SalesChart(props: {
  id: string;
  caption: string;
  days: Day[];
  value: (day: Day) => number;
  /** A figure with its unit, for the bar's tooltip and the summary ("3 orders"). */
  describe: (value: number) => string;
  /** A figure on the scale (a round number). */
  scale: (value: number) => string;
}) {
  const { id, days, value, describe } = props;
  const values = days.map(value);
  const max = Math.max(0, ...values);
  const top = scaleTop(max);
  const width = days.length * SLOT;
  const y = (v: number) => HEIGHT - (v / top) * HEIGHT;
  const peak = values.indexOf(max);
  const summary =
    max === 0 || peak < 0
      ? `None on any of the ${days.length} days.`
      : `Highest: ${describe(max)} on ${formatDate(days[peak]!.date)}.`;
  const first = days[0];
  const last = days[days.length - 1];

  return (
    <figure class="sales-chart">
      <figcaption id={`${id}-caption`}>{props.caption}</figcaption>
      <div class="chart-plot">
        <div class="chart-scale" aria-hidden="true">
          <span>{props.scale(top)}</span>
          <span>{props.scale(0)}</span>
        </div>
        <svg
          viewBox={`0 0 ${width} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={`${id}-caption ${id}-summary`}
        >
          <line class="chart-grid" x1="0" x2={width} y1="0" y2="0" />
          <line class="chart-grid" x1="0" x2={width} y1={HEIGHT / 2} y2={HEIGHT / 2} />
          {days.map((day, i) => {
            const v = values[i]!;
            const barTop = v > 0 ? Math.min(y(v), HEIGHT - MIN_BAR) : HEIGHT;
            return (
              <g key={day.date} class="chart-day">
                <title>{`${formatDate(day.date)}: ${describe(v)}`}</title>
                {/* The whole column takes the pointer: a day without orders has its tooltip too. */}
                <rect class="chart-hit" x={i * SLOT} y="0" width={SLOT} height={HEIGHT} />
                {v > 0 && (
                  <rect
                    class="chart-bar"
                    x={i * SLOT + (SLOT - BAR) / 2}
                    y={barTop}
                    width={BAR}
                    height={HEIGHT - barTop}
                  />
                )}
              </g>
            );
          })}
          <line class="chart-axis" x1="0" x2={width} y1={HEIGHT} y2={HEIGHT} />
        </svg>
        <div class="chart-dates" aria-hidden="true">
          <span>{first && formatDateShort(first.date)}</span>
          <span>{last && formatDateShort(last.date)}</span>
        </div>
      </div>
      <p id={`${id}-summary`} class="hint">
        {summary}
      </p>
    </figure>
  );
}
