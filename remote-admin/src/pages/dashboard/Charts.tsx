import type { ReactNode } from 'react';
import styled from 'styled-components';
import { theme, VisuallyHidden } from '@portal/shared';
import { linePoints, scaleValues } from './chart-scale';

/** Spec §2, §9: charts are 250 px high. */
export const CHART_HEIGHT = 250;
const WIDTH = 600;

const Plot = styled.div`
  position: relative;
  margin-left: 44px;
  border-left: 1px solid ${theme.color.border};
  border-bottom: 1px solid ${theme.color.border};
  svg { display: block; width: 100%; height: ${CHART_HEIGHT}px; overflow: visible; }
  .axis {
    position: absolute;
    left: -44px;
    width: 38px;
    text-align: right;
    font-size: 0.75rem;
    color: ${theme.color.muted};
    transform: translateY(-50%);
  }
`;

const Labels = styled.div<{ $count: number; $wrap?: boolean }>`
  display: grid;
  grid-template-columns: repeat(${(p) => p.$count}, 1fr);
  margin-left: 44px;
  padding-top: 6px;
  font-size: 0.75rem;
  color: ${theme.color.muted};
  text-align: center;
  span { white-space: ${(p) => (p.$wrap ? 'normal' : 'nowrap')}; min-width: 0; overflow-wrap: anywhere; }
  strong { display: block; color: ${theme.color.text}; font-size: 0.8rem; }
`;

interface Point {
  label: string;
  value: number;
  /** The value as read (e.g. '19 USD'). */
  text: string;
}

function Axis({ max, format }: { max: number; format: (value: number) => string }) {
  return (
    <>
      <span className="axis" style={{ top: 0 }} aria-hidden="true">
        {format(max)}
      </span>
      <span className="axis" style={{ top: '50%' }} aria-hidden="true">
        {format(max / 2)}
      </span>
      <span className="axis" style={{ top: '100%' }} aria-hidden="true">
        {format(0)}
      </span>
    </>
  );
}

/** The data of a chart as a table for screen readers. */
function DataTable({ caption, points }: { caption: string; points: Point[] }) {
  return (
    <VisuallyHidden as="table">
      <caption>{caption}</caption>
      <tbody>
        {points.map((point) => (
          <tr key={point.label}>
            <th scope="row">{point.label}</th>
            <td>{point.text}</td>
          </tr>
        ))}
      </tbody>
    </VisuallyHidden>
  );
}

/** The plot of either chart: the axis, and an SVG with the half-way guide line under what the chart draws. */
function PlotArea({ max, short, children }: { max: number; short: (value: number) => string; children: ReactNode }) {
  return (
    <Plot>
      <Axis max={max} format={short} />
      <svg viewBox={`0 0 ${WIDTH} ${CHART_HEIGHT}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <line
          x1="0"
          x2={WIDTH}
          y1={CHART_HEIGHT / 2}
          y2={CHART_HEIGHT / 2}
          stroke={theme.color.border}
          strokeDasharray="4 4"
          vectorEffect="non-scaling-stroke"
        />
        {children}
      </svg>
    </Plot>
  );
}

/** A bar chart in plain SVG (no chart library). */
const plain = (value: number) => value.toLocaleString('es-ES', { maximumFractionDigits: 1 });

export function BarChart({
  title,
  points,
  short = plain,
  everyOtherLabel = false,
}: {
  title: string;
  points: Point[];
  short?: (value: number) => string;
  everyOtherLabel?: boolean;
}) {
  const { max, ratios } = scaleValues(points.map((point) => point.value));
  const slot = WIDTH / Math.max(points.length, 1);
  return (
    <figure style={{ margin: 0 }}>
      <PlotArea max={max} short={short}>
        {ratios.map((ratio, i) => (
          <rect
            key={points[i]?.label ?? i}
            data-testid="bar"
            x={i * slot + slot * 0.15}
            width={slot * 0.7}
            y={CHART_HEIGHT - ratio * CHART_HEIGHT}
            height={ratio * CHART_HEIGHT}
            rx="3"
            fill={theme.color.primary}
          />
        ))}
      </PlotArea>
      <Labels $count={points.length} aria-hidden="true">
        {points.map((point, i) => (
          <span key={point.label}>
            <strong>{point.value}</strong>
            {!everyOtherLabel || i % 2 === (points.length - 1) % 2 ? point.label : '\u00a0'}
          </span>
        ))}
      </Labels>
      <DataTable caption={title} points={points} />
    </figure>
  );
}

/** A line chart in plain SVG (no chart library). */
export function LineChart({
  title,
  points,
  short,
}: {
  title: string;
  points: Point[];
  short: (value: number) => string;
}) {
  const { max } = scaleValues(points.map((point) => point.value));
  return (
    <figure style={{ margin: 0 }}>
      <PlotArea max={max} short={short}>
        <polyline
          data-testid="line"
          points={linePoints(
            points.map((point) => point.value),
            WIDTH,
            CHART_HEIGHT,
          )}
          fill="none"
          stroke={theme.color.success}
          strokeWidth="3"
          strokeLinejoin="round"
          vectorEffect="non-scaling-stroke"
        />
      </PlotArea>
      <Labels $count={points.length} $wrap aria-hidden="true">
        {points.map((point) => (
          <span key={point.label}>
            <strong>{point.text}</strong>
            {point.label}
          </span>
        ))}
      </Labels>
      <DataTable caption={title} points={points} />
    </figure>
  );
}
