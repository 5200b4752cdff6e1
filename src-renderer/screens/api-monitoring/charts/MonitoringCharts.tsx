import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { MonitoringSummary } from '../../../api/types.js';
import { formatUtc } from '../../../format/date-time.js';
import { INTERVAL_LABEL, formatMs, shownStatusClasses } from './chart-data.js';
import { LatencyChart } from './LatencyChart.js';
import { RequestsChart } from './RequestsChart.js';

function ChartCard({
  id,
  title,
  summaryText,
  children,
}: {
  id: string;
  title: string;
  summaryText: string;
  children: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      component="figure"
      aria-labelledby={`${id}-title`}
      data-testid={id}
      sx={{ m: 0, p: 2, height: '100%' }}
    >
      <Typography variant="h3" id={`${id}-title`}>
        {title}
      </Typography>
      <Typography component="figcaption" variant="body2" sx={{ color: 'text.secondary' }}>
        {summaryText}
      </Typography>
      {children}
    </Paper>
  );
}

/** Requests over time by status class, and p50/p95 latency, for the filter's range. */
export function MonitoringCharts({ summary }: { summary: MonitoringSummary }) {
  const { totals } = summary;
  const range = `${formatUtc(summary.start)} to ${formatUtc(summary.end)}, ${INTERVAL_LABEL[summary.interval]}`;
  const byClass = shownStatusClasses(summary)
    .map(
      (statusClass) =>
        `${totals.status[statusClass]} ${statusClass === 'other' ? 'without status' : statusClass}`,
    )
    .join(', ');
  return (
    <Box component="section" aria-label="Charts" sx={{ mb: 3 }}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <ChartCard
            id="requests-chart"
            title="Requests by status class"
            summaryText={`${totals.count} ${totals.count === 1 ? 'request' : 'requests'} (${byClass}); ${range}.`}
          >
            <RequestsChart summary={summary} />
          </ChartCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <ChartCard
            id="latency-chart"
            title="Latency"
            summaryText={`p50 ${formatMs(totals.p50)}, p95 ${formatMs(totals.p95)}, max ${formatMs(totals.maxDurationMs)} over the range; ${range}.`}
          >
            <LatencyChart summary={summary} />
          </ChartCard>
        </Grid>
      </Grid>
    </Box>
  );
}
