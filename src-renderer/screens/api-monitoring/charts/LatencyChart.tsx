import { useTheme } from '@mui/material/styles';
import { LineChart } from '@mui/x-charts/LineChart';
import type { MonitoringSummary } from '../../../api/types.js';
import { bucketLabel, everyNthTick, formatMs, isolatedPoint } from './chart-data.js';

/** p50 and p95 duration per bucket; gaps where a bucket had no requests. */
export function LatencyChart({ summary }: { summary: MonitoringSummary }) {
  const { palette } = useTheme();
  const labels = summary.buckets.map((bucket) => bucketLabel(bucket.start, summary.interval));
  const p50 = summary.buckets.map((bucket) => bucket.p50);
  const p95 = summary.buckets.map((bucket) => bucket.p95);
  const valueFormatter = (value: number | null) => (value === null ? 'no requests' : formatMs(value));
  return (
    <LineChart
      height={240}
      skipAnimation
      xAxis={[{ scaleType: 'point', data: labels, tickInterval: everyNthTick(labels.length) }]}
      yAxis={[{ label: 'Duration (ms)' }]}
      series={[
        {
          id: 'p50',
          label: 'p50',
          color: palette.primary.main,
          data: p50,
          valueFormatter,
          showMark: isolatedPoint(p50),
        },
        {
          id: 'p95',
          label: 'p95',
          color: palette.secondary.main,
          data: p95,
          valueFormatter,
          showMark: isolatedPoint(p95),
        },
      ]}
      margin={{ left: 8, right: 16, top: 8, bottom: 8 }}
    />
  );
}
