import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import type { MonitoringStatusClass, MonitoringSummary } from '../../../api/types.js';
import { bucketLabel, everyNthTick, shownStatusClasses } from './chart-data.js';

const LABEL: Record<MonitoringStatusClass, string> = {
  '1xx': '1xx',
  '2xx': '2xx',
  '3xx': '3xx',
  '4xx': '4xx',
  '5xx': '5xx',
  other: 'No status',
};

/** Requests per bucket, stacked by status class. */
export function RequestsChart({ summary }: { summary: MonitoringSummary }) {
  const { palette } = useTheme();
  const color: Record<MonitoringStatusClass, string> = {
    '1xx': palette.secondary.main,
    '2xx': palette.success.main,
    '3xx': palette.info.main,
    '4xx': palette.warning.main,
    '5xx': palette.error.main,
    other: palette.grey[500],
  };
  const labels = summary.buckets.map((bucket) => bucketLabel(bucket.start, summary.interval));
  return (
    <BarChart
      height={240}
      skipAnimation
      xAxis={[{ scaleType: 'band', data: labels, tickInterval: everyNthTick(labels.length) }]}
      yAxis={[{ label: 'Requests', tickMinStep: 1 }]}
      series={shownStatusClasses(summary).map((statusClass) => ({
        id: statusClass,
        label: LABEL[statusClass],
        stack: 'status',
        color: color[statusClass],
        data: summary.buckets.map((bucket) => bucket.status[statusClass]),
      }))}
      margin={{ left: 8, right: 16, top: 8, bottom: 8 }}
    />
  );
}
